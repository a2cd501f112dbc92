import type { ThreadStrings } from './en.js';

/** Japanese; what is missing here is said in English. */
export const ja: Partial<ThreadStrings> = {
  categories: {
    testing: 'テスト',
    'data-analysis': 'データ分析',
    'web-scraping': 'Webスクレイピング',
    'code-review': 'コードレビュー',
    'bug-fixing': 'バグ修正',
    feature: '機能開発',
    refactoring: 'リファクタリング',
    'incident-triage': 'インシデント調査',
  },
  complexity: { simple: '小', medium: '中', complex: '大' },
  taskOn: (category, repository, status) => `${repository} の${category}タスク: ${status}`,
  where: '場所:',
  constraints: '制約:',
  doneWhen: '完了条件:',
  cancel: 'キャンセル',
  queued: (position) => `:hourglass_flowing_sand: 順番待ち${position ? `(${position}番目)` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: このスレッドで実行中のタスクの完了を待っています',
  addDetails: '詳細を追加',
  startAnyway: 'このまま開始',
  needMore: '推測で進めないよう、始める前にもう少し教えてください:',
  answerHere: 'このスレッドで返信するか、*詳細を追加* を押してください。',
  tooLarge: (step) =>
    `一度にうまく進めるには大きすぎるため、このままでは開始しません。最初の一歩としてできること:\n> ${step}\nこのスレッドでそれ(またはご自身の最初の一歩)を添えてメンションするか、*このまま開始* を押してください。`,
  questionIntro: (requester) => `<@${requester}> 続ける前に質問があります:`,
  decideYourself: 'おまかせ',
  deadline: (hasButtons, date) =>
    `${hasButtons ? 'ボタンを押すか、' : ''}このスレッドで返信してください(判断をおまかせいただくこともできます)。それまで処理は一時停止します。${date} までに回答がなければ、今ある内容で終了します。`,
  asked: (requester) => `<@${requester}> 次の質問をしました:`,
  answered: (by, answer) => `<@${by}> の回答: ${answer}`,
  cancelledBy: (user) => `_回答の前に <@${user}> がキャンセルしました。_`,
  noAnswerInTime: '_期限までに回答がなかったため、今ある内容で終了します。_',
  reminder: (requester, question, date) =>
    `<@${requester}> リマインダー: 上の質問(${question})への回答をまだお待ちしています。${date} までに回答がなければ、今ある内容で終了します。`,
  dateAt: '',
  phases: {
    queued: ':hourglass_flowing_sand: 順番待ち',
    preparing: ':package: 作業環境を準備中',
    working: ':hammer_and_wrench: 作業中',
    waiting: ':question: 回答待ち',
    verifying: ':test_tube: 検証中',
    publishing: ':outbox_tray: プルリクエストを作成中',
    done: ':white_check_mark: 完了',
    failed: ':x: 失敗',
    cancelled: ':no_entry_sign: キャンセル済み',
  },
  after: (elapsed) => `${elapsed} で終了`,
  usually: (elapsed, typical) => `${elapsed}(目安 ${typical})`,
  seeEveryStep: 'すべての手順を見る',
};
