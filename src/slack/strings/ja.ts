import { schedulesJa } from '../../schedules/schedule-strings.js';
import { answerJa } from '../../answers/answer-strings.js';
import { codeList, fetchHeld } from '../../error-words.js';
import type { SecretKind } from '../../security/secret-kind.js';
import { setupEgressLine } from '../../verification/render-verification.js';
import type { EgressStrings } from '../../verification/verification-strings.js';
import type { Catalogue } from './en.js';

/** A secretlint rule's credential ("…らしきもの"). */
const SECRET_RULES_JA: Record<string, string> = {
  github: 'GitHub トークン',
  slack: 'Slack トークンまたは Webhook URL',
  anthropic: 'Anthropic API キー',
  openai: 'OpenAI API キー',
  aws: 'AWS の認証情報',
  gcp: 'Google Cloud の認証情報',
  privatekey: '秘密鍵',
  'secp256k1-privatekey': '秘密鍵',
  basicauth: 'URL 内のパスワード',
  'database-connection-string': 'データベースのパスワード',
  npm: 'npm トークン',
  sendgrid: 'SendGrid API キー',
  stripe: 'Stripe キー',
};

/** What the egress policy refused during setup (said in the checks and in the progress line). */
const egressWords: EgressStrings = {
  egressNotAllowed: (target) => `${target}: 送信先の許可リスト(sandbox.egress.allow)にありません`,
  egressMetadata: (target, address) => `${target}: クラウドのメタデータアドレス ${address} に解決されます`,
  egressNonPublic: (target, address) => `${target}: 公開アドレスではない ${address}(ループバック、プライベートまたはリンクローカル)に解決されます`,
  egressUpstreamRefused: (target, upstream, answer) => `${target}: 上流プロキシ ${upstream} が ${answer} を返しました`,
  egressUpstreamUnreachable: (target, upstream, answer) => `${target}: 上流プロキシ ${upstream} に接続できませんでした(${answer})`,
  setupCouldNotReach: (refusal, more) =>
    `セットアップは次の接続先に到達できませんでした: ${refusal}${more.length ? `(ほかに ${more.length} 件拒否: ${more.join(', ')})` : ''}。`,
};

/** The GitHub events a thread can be told Wrench could not act on. */
const EVENT_WORDS_JA: Record<string, string> = {
  comment: 'コメント',
  'review-comment': 'レビューコメント',
  review: 'レビュー',
  'check-failed': '失敗したチェック',
  'check-passed': '成功したチェック',
  'status-failed': '失敗したコミットステータス',
  closed: 'クローズ',
};

/** Japanese; what is missing here is said in English. */
export const ja: Catalogue = {
  categories: {
    testing: 'テスト',
    'data-analysis': 'データ分析',
    'web-scraping': 'Webスクレイピング',
    'code-review': 'コードレビュー',
    'bug-fixing': 'バグ修正',
    feature: '機能開発',
    refactoring: 'リファクタリング',
    'incident-triage': 'インシデント調査',
    question: '質問',
  },
  complexity: { simple: '小', medium: '中', complex: '大' },
  taskOn: (category, repository, status) => `${repository} の${category}タスク: ${status}`,
  where: '場所:',
  constraints: '制約:',
  doneWhen: '完了条件:',
  cancel: 'キャンセル',
  queued: (position) => `:hourglass_flowing_sand: 順番待ち${position ? `(${position}番目)` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: このスレッドで実行中のタスクの完了を待っています',
  statusLine: {
    reading: 'がリクエストを読んでいます…',
    readingSteps: (repository) => ['リクエストを読んでいます…', `${repository} を確認しています…`],
    waitingForWorker: 'が空きワーカーを待っています…',
    waitingOn: (detail) => `が待機しています(${detail})…`,
  },
  addDetails: '詳細を追加',
  startAnyway: 'このまま開始',
  needMore: '推測で進めないよう、始める前にもう少し教えてください:',
  answerHere: 'このスレッドで返信するか、*詳細を追加* を押してください。',
  startingAnyway: (user) => `<@${user}> さんの依頼により、このまま開始します。`,
  enoughToStart: 'ありがとうございます。これで開始できます。',
  requestGone: 'この依頼はすでに開始されたか、期限切れです。',
  requestBusy: '誰かがこの依頼を今まさに開始しているか、内容を追加しています。もう一度質問した場合は、新しいカードに答えてください。',
  replyWhileStarting:
    'メッセージが届いたとき、この依頼はすでに開始処理中だったため、メッセージは依頼に追加されませんでした。実行が始まったらここに返信するとエージェントに渡します。フォローアップにするには私をメンションしてください。',
  clarifying: {
    target: {
      testing: {
        question: 'テストで何をカバーしますか？テスト対象のモジュール、関数、または動作を挙げてください。',
        placeholder: 'src/lib/format.ts の `formatBytes`: 0、1023、1024、負の入力',
      },
      'code-review': { question: '何をレビューしますか？PR 番号かリンク、ブランチ、またはファイルを教えてください。', placeholder: 'PR #123 in acme/api' },
      'data-analysis': {
        question: 'どのデータを分析しますか？ファイル、テーブル、またはエクスポートを教えてください。',
        placeholder: 'data/orders-2026-09.csv',
      },
      'web-scraping': {
        question: 'どのサイトやページから収集しますか？URL と、それぞれから何を収集するかを教えてください。',
        placeholder: 'https://example.com/pricing: プラン名、月額料金、通貨',
      },
      refactoring: { question: 'どのコードをリファクタリングしますか？ファイル、モジュール、または関数を挙げてください。', placeholder: 'src/api/handlers.ts' },
      'bug-fixing': { question: '製品のどの部分に影響がありますか？', placeholder: '保存済みのカードで支払うときのチェックアウトページ' },
      feature: { question: '具体的に何を作り、どこに置きますか？', placeholder: 'src/cli/status.ts の `status` コマンドに `--json` フラグ' },
      'incident-triage': { question: 'どのサービスまたはシステムに影響がありますか？', placeholder: 'search-api(リポジトリ acme/search)' },
      question: {
        question: 'コードについて何を知りたいですか？機能、ファイル、または動作を挙げてください。',
        placeholder: '/search のレート制限がどこで設定されているか',
      },
    },
    failingTests: {
      question: 'テストはどのように失敗しますか？失敗したテストの名前と、アサーションまたはエラーの出力を貼り付けてください。',
      placeholder: 'test/cart/total.test.ts "applies coupon" が main で失敗: expected 10, received 9.99',
    },
    incidentSymptoms: {
      question: '何が起きていますか？どのサービスで、いつから、どんな症状(エラー率、ステータスコード、アラート、最近のデプロイ)がありますか？',
      placeholder: 'checkout-api: リリース 3.4.1 の直後、14:05 UTC から POST /orders で 502',
    },
    observedProblem: {
      question: '具体的に何が問題ですか？エラーメッセージかスタックトレースを貼り付け、期待した結果と実際に起きたこと、再現手順を教えてください。',
      placeholder: '期待: 注文ごとに 1 回の請求。実際:「支払う」をダブルクリックするとカードに 2 回請求される。',
    },
    codeToTest: { question: 'テスト対象のコードはどこにありますか？ファイルまたはディレクトリを教えてください。', placeholder: 'src/lib/format.ts' },
    location: {
      question: 'どこで起きていますか？ファイル、関数、エンドポイント、またはページを挙げてください。',
      placeholder: 'src/payments/charge.ts の `createCharge`(POST /checkout)',
    },
    rewriteScope: {
      question: '全面的な書き直しは 1 つのタスクには大きすぎます。どのモジュールまたはサービス 1 つから始めますか？また、何を引き続き満たす必要がありますか？',
      placeholder: '/search エンドポイントのみ、API は同じ、既存のテストが通ること',
    },
    scope: (subject) => ({
      question: `${subject ? `「${subject}」は` : 'これは'}範囲が広すぎます。最初に作る、範囲を区切った部分はどれですか？また、何を対象外にしますか？`,
      placeholder: 'Stripe Checkout を使うチェックアウトのエンドポイント 1 つ、返金やサブスクリプションはまだ対象外',
    }),
    requirements: { question: '何ができる必要がありますか？要件を 1 行に 1 つずつ挙げてください。', placeholder: '1. …\n2. …' },
    analysisQuestions: {
      question: '分析でどんな問いに答えますか？指標や内訳と、欲しい出力を挙げてください。',
      placeholder: '日別の売上、売上上位 10 商品; Markdown の表と棒グラフの PNG',
    },
    refactoringGoal: {
      question: '完了したら何が変わっているべきですか？具体的な変更と、満たすべきチェックを挙げてください。',
      placeholder: 'src/api/handlers/ 以下にリソースごとに 1 ファイル、動作は変えない、既存のテストが通る',
    },
    testsProve: {
      question: 'テストで何を証明しますか？ケースまたは到達すべきカバレッジを挙げてください。',
      placeholder: 'エクスポートされたすべての関数にテストがある; src/lib/ のブランチカバレッジ 90% 以上',
    },
    done: {
      question: '完了したことをどう判断しますか？測定できる結果か、通るべきチェックを挙げてください。',
      placeholder: '1,000 行でもページが 1 秒未満で表示される; `npm test` が通る',
    },
    focusAreas: { question: 'レビューでは何に重点を置きますか？', placeholder: '新しい管理者用ルートの SQL インジェクションと認可チェック' },
    findingsFormat: { question: '指摘事項はどの形式で報告しますか？', placeholder: 'Markdown、重大度 Critical/Major/Minor' },
    outputFormat: { question: '結果はどの形式がよいですか？', placeholder: 'Markdown の表と PNG のグラフ' },
    rateLimit: { question: 'ページをどのくらいの速さで取得してよいですか？', placeholder: '1 秒あたり最大 1 リクエスト' },
    errorHandling: {
      question: 'リクエストが失敗またはタイムアウトしたらどうしますか？',
      placeholder: 'バックオフ付きで 2 回再試行し、その後そのページをスキップ',
    },
    logging: { question: '何をログに記録しますか？', placeholder: '失敗した URL ごとに、そのステータスコードと理由' },
    more: (element) => `「${element}」について、もう少し詳しく教えてください。`,
  },
  modal: { title: '詳細を追加', submit: '開始', close: 'キャンセル', instruction: 'あなたの指示' },
  onlyRequesterAddsDetails: 'ここで詳細を追加できるのは、依頼した人か承認者だけです。',
  onlyRequesterStarts: 'これを開始できるのは、依頼した人か承認者だけです。',
  whichRepository:
    'このチャンネルは複数のリポジトリを扱っており、この依頼がどのリポジトリ向けか判断できません。対象のボタンを押すか、このスレッドでリポジトリ名を返信してください。',
  repositoryChosen: (user, repository) => `<@${user}> さんが *${repository}* を選びました。そこで作業を始めます。`,
  onlyRequesterChoosesRepository: 'リポジトリを選べるのは、依頼した人か承認者だけです。',
  nameTheRepository: (repositories) =>
    `どのリポジトリ向けかまだ判断できません。上のボタンのどれかを押すか、返信で ${repositories} のいずれかを挙げてください。`,
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
  questionStale: 'この質問はすでに回答済みか、期限切れです。',
  questionSettled: (outcome: string) => `この質問はすでに決着しています: ${outcome}`,
  questionNotYours: (requester) =>
    `ありがとうございます。この質問は <@${requester}> さんに尋ねたものなので、その方(または承認者)の回答を待ちます。あなたのメッセージは回答として扱っていません。`,
  lateAnswer: (question, date, mention) =>
    `私の質問(「${question}」)は ${date} に回答がないまま期限切れになったため、その実行は今ある内容で終了しました。あなたの返信は回答として扱っていません。続けるには、このスレッドで回答を添えて私をメンションしてください(${mention} の後に回答)。このスレッドの作業を引き継ぐフォローアップの実行が始まります。`,
  questionExpired: ':warning: この実行は質問への回答を待っていましたが、保存された会話の期限が切れたため、続行できません。',
  questionExpiredNext: 'やり直すには、このスレッドで私をメンションしてください。質問の前にプッシュした作業はブランチにあります。',
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
  opened: (draft, pull, counts) => `${draft ? ':warning:' : ':white_check_mark:'} ${draft ? 'ドラフトの' : ''}プルリクエストを作成しました: ${pull}${counts}`,
  updated: (draft, pull, counts) => `:arrows_counterclockwise: ${draft ? 'ドラフトの' : ''}プルリクエストを更新しました: ${pull}${counts}`,
  answeredNoChange: ':speech_balloon: ファイルは変更していないため、プルリクエストはありません。回答:',
  stoppedWithPull: (draft, pull, counts) =>
    `:warning: 途中で停止しました。ここまでの作業は${draft ? 'ドラフトの' : ''}プルリクエストにあります: ${pull}${counts}`,
  stoppedNoChanges: ':warning: 変更を加えないまま途中で停止しました。',
  runFailed: ':x: 実行に失敗しました。',
  pausedOnQuestion: ':question: 上の質問に回答があるまで一時停止しています。',
  everyStepOfThisRun: 'この実行のすべての手順',
  replyRefused: ':information_source: Slack が返信全体を受け付けなかったため、要約版を送ります。',
  filesFromThisRun: (names) => `:paperclip: この実行で作成したファイル: ${names}`,
  progress: {
    cloning: ({ repository, readOnly }) => `${repository} をクローン中${readOnly ? '(読み取り専用)' : ''}`,
    checkingOut: ({ branch }) => `${branch} をチェックアウト中`,
    checkingOutHead: ({ number }) => `#${number} の最新コミットをチェックアウト中(読み取り専用)`,
    readingPull: ({ number }) => `プルリクエスト #${number} を確認中`,
    preparingReadOnly: ({ repository }) => `\`${repository}\` の読み取り専用チェックアウトを準備中`,
    preparingBranch: ({ branch, base }) => `\`${base}\` からブランチ \`${branch}\` を準備中`,
    installing: ({ command }) => `依存関係をインストール中(\`${command}\`)`,
    installingNode: ({ version, source }) => `Node.js ${version} をインストール中(${source})`,
    refreshing: ({ command }) => `復元した依存関係を更新中(\`${command}\`)`,
    dependenciesInPlace: '同じロックファイルの依存関係がすでにあります',
    dependenciesRestored: '同じロックファイルで以前インストールした依存関係を復元しました',
    installFailed: ({ command, timedOut, exitCode, egress }) =>
      `依存関係をインストールできませんでした: \`${command}\` が${timedOut ? 'タイムアウトしました' : `終了コード ${exitCode ?? 'なし'} で終了しました`}${egress?.length ? `。${setupEgressLine(egress, egressWords)}` : ''}`,
    refreshFailed: ({ command, timedOut, exitCode }) =>
      `依存関係を更新できませんでした: \`${command}\` が${timedOut ? 'タイムアウトしました' : `終了コード ${exitCode ?? 'なし'} で終了しました`}`,
    testsOnBase: 'ベースコミットでテストを実行中',
    readingCode: 'コードを確認中',
    reviewingPull: ({ number }) => `#${number} をレビュー中`,
    reviewingCode: 'コードをレビュー中',
    investigating: 'コードを調査中(読み取り専用、ネットワークなし)',
    readingIncident: 'インシデントとそのアラート、ログを確認中',
    readingChanges: ({ branch, hours, before }) => `${before === 'incident' ? 'インシデント' : '現在'}までの ${hours} 時間の \`${branch}\` の変更を確認中`,
    running: ({ command }) => `\`${command}\` を実行中`,
    reading: ({ path }) => `${path} を確認中`,
    editing: ({ path }) => `${path} を編集中`,
    askingServer: ({ server, tool }) => `${server} に問い合わせ中(${tool})`,
    askingRequester: '依頼者に質問中',
    updatingPlan: '計画を更新中',
    queryingMetrics: ({ query }) => `メトリクスを照会中: \`${query}\``,
    listingMetrics: ({ mode, label, match }) => `メトリクスの ${mode}${label ? ` ${label}` : ''}${match ? `(\`${match}\`)` : ''} を一覧表示中`,
    tool: ({ name }) => name,
    testsAfterChange: '変更後のテストを実行中',
    testsAfterRevert: 'リバート後のテストを実行中',
    testsAgain: 'テストを再実行中',
    waitingForBaseline: 'ベースコミットでのテストの完了待ち',
    fixingBreakage: '変更で壊れた箇所を修正中',
    regressionTestFails: '修正なしでは回帰テストが失敗することを確認中',
    coverageOnBase: ({ command }) => `ベースコミットでカバレッジを計測中(\`${command}\`)`,
    coverageAfter: '変更後のカバレッジを計測中',
    downloading: ({ count }) => `添付ファイル ${count} 件をダウンロード中`,
    pushing: ({ branch }) => `${branch} をプッシュ中`,
    pushingDraft: ({ branch }) => `\`${branch}\` をプッシュしてドラフトのプルリクエストを作成中`,
    keepingWork: ({ branch }) => `ここまでの作業を ${branch} に保存中`,
    askedQuestion: ({ user }) => `${user} に質問しました`,
    nothingPushed: '何もプッシュしていません',
    cancelledBeforeStart: '開始前にキャンセルされました',
    stoppedDuring: ({ by, stage }) =>
      `${{ setup: '準備（クローンと依存関係のインストール）', work: '作業', checks: 'チェック', publishing: '公開' }[stage]}の途中で ${by} が停止しました`,
    retrying: ({ problem }) => `一時的な問題のため、まもなく再試行します: ${problem}`,
    waitingThread: 'このスレッドで実行中のタスクの完了待ち',
    waitingGlobal: '空きワーカー待ち(すべてのワーカーが使用中)',
    waitingRepository: 'このリポジトリの他の実行の完了待ち',
    waitingUser: 'あなたの他の実行の完了待ち',
    waitingDisk: ({ freeMb, needMb }) => `ワーカーのディスク空き容量待ち（空き ${freeMb} MB、開始に ${needMb} MB 必要）`,
  },
  refactoring: {
    suiteFailsHeadline: ':warning: ベースコミットの時点でテストスイートが失敗しているため、リファクタリングを開始しませんでした。',
    suiteFailsAnswer: (test, failures) =>
      `リファクタリングでは成功しているテストスイートを成功したまま保つ必要がありますが、${test} は変更前からすでに失敗しています: ${failures}。まずそれらのテストを直すか、テストが失敗していてもリファクタリングするよう添えて、もう一度私をメンションしてください。`,
    timedOut: 'タイムアウトしました',
    failing: (count, names) => `${count} 件失敗(${names} など)`,
    exitCode: (code) => `終了コード ${code}`,
    draftSuiteFails: 'リファクタリング後もテストスイート全体が成功している必要がありますが、この変更の後で失敗しています。',
    movedAndRenamed: '移動と名前の変更',
    moved: (what, from, to) => `- ${what} を移動: ${from} → ${to}`,
    renamed: (kind, from, to) => `- ${kind ? `${kind} ` : ''}${from} の名前を変更 → ${to}`,
    fullSuite: 'テストスイート全体',
    suiteBeforeAfter: (command, before, after) =>
      `${command} はベースコミットで${before === undefined ? '実行されていません' : before ? '成功し' : '失敗し'}、リファクタリング後は${after ? '成功します' : '失敗します'}。`,
  },
  plan: {
    stages: {
      reading: '依頼を読む',
      preparing: '作業環境を準備する',
      working: '変更に取り組む',
      answering: '回答のためにコードを読む',
      edits: 'ファイルを編集する(エージェント)',
      'agent-tests': 'テストを実行する(エージェント)',
      verifying: '検証: テストとチェックを実行する',
      publishing: '公開: プルリクエストを作成または更新する',
      question: '質問への回答を待つ',
    },
    workingOn: (repository) => `${repository} で作業中`,
    state: (state, what) =>
      `${{ queued: '順番待ち', waiting: '一時停止(回答待ち)', done: '完了', failed: '失敗', cancelled: 'キャンセル済み' }[state]}: ${what}`,
    cancelled: 'キャンセル済み',
    stopHint: '停止するには「stop」とメンションしてください',
    agentStep: (step) => `${step}(エージェントの計画)`,
    droppedStep: 'エージェントの計画から外されました',
    notMarkedDone: 'エージェントは完了にしていません',
    editedFiles: (count, files) => `${count} ファイル: ${files}`,
    testRuns: (count, command) => `${count} 回実行、最新: ${command}`,
    everyStepOnPage: '実行ページですべての手順を見る',
    couldNotQueue: '実行をキューに追加できませんでした',
    behindThreadRun: 'このスレッドで実行中のタスクの後',
    queuePosition: (position) => `${position}番目`,
    restOnPage: '続きは実行ページにあります。',
  },
  stoppedEarlyDetail: '途中で停止',
  draftDetail: '(ドラフト)',
  report: {
    outcomeSetupFailed: (setup) =>
      `結果: Wrench は依存関係をインストールできませんでした(\`${setup}\` が失敗)。そのため、Wrench のチェックでは変更が正しく動くかどうかはわかりません。`,
    outcomeRegressed: (command, fails, counts) =>
      `結果: 変更前は成功していたチェックが、この変更で失敗するようになりました。\`${command}\` は${fails ? '失敗' : '成功'}しています${counts}。`,
    outcomeFails: (command, counts, asBefore) => `結果: 変更後、\`${command}\` は失敗します${counts}${asBefore ? '(変更前と同じ)' : ''}。`,
    outcomePasses: (command, counts) => `結果: 変更後、\`${command}\` は成功します${counts}。`,
    outcomePrefix: '結果:',
    summary: '概要',
    summaryAccount: '概要(エージェントの説明)',
    summaryContradicted: '概要(エージェントの主張。Wrench のチェック結果と矛盾)',
    verification: '検証(Wrench が実行)',
    draftReason: 'ドラフトにした理由',
    stoppedEarly: '途中で停止',
    changes: '変更内容(コミットされた差分より)',
    claimedNotChanged: 'エージェントが変更したと主張しているが、変更されていないもの',
    sectionAccount: (title) => `${title}(エージェントの説明)`,
    sectionContradicted: (title) => `${title}(エージェントの主張。Wrench のチェック結果と矛盾)`,
    ownChecksUnconfirmed: 'エージェントが確認したと述べている内容(Wrench は未確認)',
    ownChecksContradicted: 'エージェントが確認したと述べている内容(Wrench のチェック結果と矛盾)',
    openQuestions: '未解決の質問(エージェントより)',
    measuredFailed: (command, counts) => `Wrench の計測: 変更後、\`${command}\` は失敗しました${counts}。`,
    measuredRegressed: 'Wrench の計測: 変更前に成功していたチェックが、変更後に失敗しています(「検証」を参照)。',
    agentSays: (description) => `: エージェントの説明: ${description}`,
    claimedOnly: (change) => `: 変更したと主張しているが、変更されていない(エージェントの説明: ${change})`,
    instructionsRead: (files) => `読んだリポジトリのエージェント向け指示：${files}。`,
    instructionTruncated: '（一部のみ）',
    instructionOmitted: '（省略：サイズ上限）',
    instructionSameAs: (path) => `（${path} と同じ）`,
    steps: (n) => `${n} ステップ`,
    files: (n) => `${n} ファイル`,
    tokens: 'トークン',
  },
  verification: {
    verdicts: { improved: '改善', unchanged: '変更前と同じ', regressed: '悪化', 'not-run': '未実行' },
    passed: '成功',
    failed: '失敗',
    timedOut: 'タイムアウト',
    timedOutAfter: (duration) => `${duration} でタイムアウト`,
    setupTimedOut: (duration) => `${duration} でタイムアウトしました`,
    exitedWith: (code) => (code === null ? '強制終了されました(終了コードなし)' : `終了コード ${code} で終了しました`),
    failedWithExit: (code) => `失敗(終了コード ${code ?? 'なし: 強制終了'})`,
    couldNotInstall: '依存関係をインストールできませんでした',
    noTestCommand: 'テストコマンドが見つかりませんでした(wrench.config.yml の `verification:` で指定できます)。',
    notRun: (command) => `${command} は実行されませんでした。`,
    setupFailed: (command, how) =>
      `**依存関係をインストールできませんでした**: ${command} が${how}。以下のチェックは依存関係なしで実行されたため、変更が正しく動くかどうかはわかりません。`,
    baseSetupFailed: (command, how) =>
      `**ベースコミットで依存関係をインストールできませんでした**: ${command} が${how}。そのためベースコミットでのチェックは比較に使えず、変更後のチェックは比較対象なしで示しています。`,
    lastLines: '出力の最後の行:',
    setupRemembered: (ago) =>
      `再実行していません: ${ago}前に同じロックファイル・セットアップコマンド・ランタイムで失敗しており、ここに示すのはその実行です。失敗が \`cache.setupFailureMinutes\` より古くなると再び実行します。`,
    header: (withBaseline, verdict) => `Wrench が${withBaseline ? 'ベースコミットと変更後に' : '変更後に'}実行したチェック: **${verdict}**。`,
    newFailures: (names) => `新たに失敗: ${names}。`,
    stillFailing: (names) => `引き続き失敗(変更前から失敗): ${names}。`,
    fixed: (names) => ` 修正: ${names}。`,
    andMore: (names, more) => `${names} ほか ${more} 件`,
    sameAsBefore: (outcome) => `変更前と同じ: ${outcome}`,
    beforeAfter: (before, after) => `変更前 ${before} → 変更後 ${after}`,
    afterOnly: (outcome) => `変更後 ${outcome}(ベースコミットは未チェック)`,
    bothTimes: (state) => `変更前も変更後も${state}`,
    stateChange: (before, after) => `変更前 ${before} → 変更後 ${after}`,
    outputEnd: (command) => `${command} の出力(末尾):`,
    ...egressWords,
  },
  regression: {
    rootCause: '根本原因',
    regressionTest: '回帰テスト',
    noTest: ':warning: 回帰テストがありません: この変更はテストファイルを追加も変更もしていないため、バグが直ったことを示すものがありません。',
    testsOnly: 'この変更はテストのみを変更しているため、テストを確かめる対象となる修正がありません。',
    noCommand: 'テストコマンドが見つからなかったため、回帰テストを実行できませんでした。',
    checkedBy: (files) => `_Wrench が確認: 修正したソースファイル(${files})をベースのバージョンに戻してテストを実行し、その後修正ありで実行しました。_`,
    proven: (test, how) => `:white_check_mark: 回帰テスト ${test} は修正前に失敗し、修正後は成功します${how.trim()}。`,
    failingAfter: (test, how) => `:x: 回帰テスト ${test} は修正後も失敗します${how.trim()}。`,
    notFailingBefore: (test, how) => `:warning: ${test} は修正なしでも成功するため、バグを示していません${how.trim()}。`,
    notRun: (test, how) => `${test} は実行されませんでした${how.trim()}。`,
    couldNotCheck: (error) => `回帰テストを確認できませんでした: ${error}`,
  },
  coverage: {
    title: 'カバレッジ',
    metrics: { lines: '行', statements: 'ステートメント', coverage: 'カバレッジ' },
    notMeasured: '未計測',
    notMeasuredFailed: '未計測(コマンドが失敗)',
    afterOnly: (command, metric, after) => `${command}: ${metric} 変更後 ${after}(ベースコミットは未計測)。`,
    beforeAfter: (command, metric, before, after, change) => `${command}: ${metric} 変更前 ${before} → 変更後 ${after}${change}。`,
    unchanged: '(変化なし)',
    points: (delta) => `(${delta} ポイント)`,
  },
  analysis: {
    mainResult: '主な結果',
    fromReport: (path) => `${path} より。レポートとグラフはこの結果に添付しています(コミットはしていません)。`,
    noTable: (path) => `${path} には表がありません。下に添付しています。`,
    noReport: (folder) => `この実行では ${folder} にレポートが残されていません。`,
    notUploaded: 'アップロードしなかったファイル',
    skippedType: '共有するレポートやグラフの種類ではありません',
    skippedCount: (max) => `${max} ファイルを超えています`,
    skippedSize: '大きすぎてアップロードできません',
  },
  schedules: schedulesJa,
  images: {
    notImage: (name) => `${name} は(内容から見て)PNG・JPEG・GIF・WebP の画像ではないため、送信しませんでした。`,
    unreadable: (name) => `${name} は画像として読み取れませんでした(破損しているか不完全です)。`,
    tooLarge: (name) => `${name} は縮小しても大きすぎるため送信できません。`,
    notDownloaded: (name) => `${name} を Slack からダウンロードできませんでした。`,
    tooMany: (max, names) => `送信するのは最初の ${max} 枚の画像だけです。送信しなかった画像: ${names}。`,
  },
  stop: {
    cancelledBy: (user, via) => `${user} が${via === 'page' ? '実行ページで' : via === 'home' ? 'App Home で' : ''}キャンセルしました。`,
    cancelled: 'キャンセルされました。',
    cancelledWhileWaiting: (user) => `回答を待っている間に ${user} がキャンセルしました。`,
    gap: '',
    restarting: 'Wrench が再起動したため、この実行は停止しました。',
    toGoOn: '続けるには、このスレッドで私をメンションしてください。',
    noAnswer: (waited) => `${waited} 以内に質問への回答がなかったため、そこで停止しました。`,
    nothingPushedBranch: (branch) => `何もプッシュしていません。${branch} はこの実行の前のままです。`,
    noBranchYet: 'まだ何も変更していなかったため、ブランチはありません。',
    nothingPushedPull: (branch) => `何もプッシュしていません。${branch} とそのプルリクエストはこの実行の前のままで、途中までの変更は破棄しました。`,
    keptInPull: (draft, number, branch) => `それまでの作業は${draft ? 'ドラフトの' : ''}プルリクエスト #${number}(ブランチ ${branch})にあります。`,
    keptOnBranch: (branch) => `それまでの作業はブランチ ${branch} にあります。`,
    stepLimit: (steps) => `ステップ数の上限(${steps} ステップ)に達しました。`,
    timeLimit: (minutes) => `時間の上限(${minutes} 分)に達しました。`,
    costLimit: (cap, spent) => `コストの上限($${cap})に達しました($${spent} 使用)。`,
    tokenLimit: (tokens) => `トークンの上限(${tokens} トークン)を使い切りました。`,
    refused: 'モデルがこのタスクの続行を拒否しました。',
    contextExhausted: '会話がモデルのコンテキストウィンドウに収まらなくなりました。',
    modelApiFailed: (status, text) => `モデルの API が再試行後も失敗しました${status ? `(HTTP ${status})` : ''}: ${text}`,
    agentFailed: (text) => `エージェントが失敗しました: ${text}`,
  },
  finishedNoChange: 'ファイルを変更せずに終了しました。',
  draft: {
    regressed: '変更前に成功していたチェックが、この変更で失敗するようになりました(「検証」を参照)。エージェントに修正を試みさせましたが、解決しませんでした。',
    protectedPaths: (paths) => `この変更は保護されたパス(${paths})に触れています。準備完了にする前に、承認者がレビューして承認する必要があります。`,
    runtimeMismatch: (runtimes) => `チェックはリポジトリが求めるランタイムで実行できなかったため、その CI が示す結果とは一致しません: ${runtimes}`,
  },
  failure: {
    interrupted: (times) =>
      `実行中のワーカーが途中で ${times} 回停止した（強制終了またはクラッシュ）ため、再開されず結果はありません。もう一度依頼するにはメンションしてください。それまでに push したものはブランチにあります。`,
    runFailed: (message) => `実行に失敗しました: ${message}`,
    githubRefused: (status, text) =>
      `GitHub がリクエストを拒否しました(HTTP ${status}): ${text}。GITHUB_TOKEN にこのリポジトリへのプッシュとプルリクエスト作成の権限があるか確認してください。`,
    githubNotFound: 'GitHub でリポジトリまたはブランチが見つかりませんでした(HTTP 404)。リポジトリ名とトークンのアクセス権を確認してください。',
    githubRejected: (text) => `GitHub がプルリクエストを受け付けませんでした(HTTP 422): ${text}。`,
    githubFailed: (status, text) => `GitHub でエラーが発生しました(HTTP ${status}): ${text}。数分後にもう一度お試しください。`,
    unexpected: (text) => `実行が予期せず失敗しました: ${text}。もう一度お試しください。繰り返し失敗する場合は、管理者がこのジョブのログを確認できます。`,
  },
  errors: {
    pushBlockedSecret: ({ branch, places, reword, held }) => {
      const kind = (k: SecretKind) => ('own' in k ? `Wrench 自身の ${k.own}` : `${SECRET_RULES_JA[k.rule] ?? '認証情報'}らしきもの`);
      const where = places.map((place) =>
        'file' in place
          ? `\`${place.file}\` の ${place.line} 行目: ${kind(place.kind)}`
          : `コミット ${place.message} のメッセージ(${place.line} 行目): ${kind(place.kind)}`,
      );
      const fix = reword ? '認証情報を削除し(そのコミットのメッセージも書き直して)' : '認証情報を削除して';
      const on = held?.host ? `Wrench ワーカー \`${held.host}\` ` : 'Wrench のマシン';
      const kept = held
        ? `コミットは ${on}に保留バンドル \`${held.id}\` として${held.days ? ` ${held.days} 日間` : ''}保管されています(Wrench のユーザーだけが読めます。${held.host ? 'その' : ''}ワーカーで \`wrench doctor\` を実行すると一覧が出ます)。オペレーターはリポジトリのクローンで ${fetchHeld(held.id, held.ref)} を実行して取得できます。`
        : '';
      return `\`${branch}\` はプッシュしませんでした。認証情報が含まれています: ${where.join('、')}。この実行の内容はこのマシンの外に出ていません。${fix}から、もう一度メンションして再試行してください。${kept}`;
    },
    githubNotConfigured: ({ need }) =>
      need === 'review'
        ? 'プルリクエストのレビューには GitHub の認証情報が必要です。GITHUB_TOKEN、または GitHub App の場合は GITHUB_APP_ID と GITHUB_APP_PRIVATE_KEY_PATH を設定してください。'
        : 'GitHub の認証情報が設定されていないため、プルリクエストを作成できません。GITHUB_TOKEN、または GitHub App の場合は GITHUB_APP_ID と GITHUB_APP_PRIVATE_KEY_PATH を設定してください。',
    repositoryNotFound: ({ repository }) =>
      `${repository} が見つからないか、Wrench の GitHub 認証情報では読めません。このチャンネルに紐づくリポジトリ (wrench.config.yml) と、Wrench にアクセス権があるかを確認してください。`,
    baseBranchNotFound: ({ repository, branch }) => `${repository} にブランチ "${branch}" がありません。存在するベースブランチを指定してください。`,
    noDefaultBranch: 'リポジトリにデフォルトブランチがありません(空ですか?)。最初のコミットをプッシュするか、ベースブランチを指定してください。',
    branchNotFound: ({ repository, branch }) => `ブランチ "${branch}" は ${repository} にもう存在しません。代わりに新しいタスクを開始してください。`,
    branchExists: ({ repository, branch }) => `ブランチ "${branch}" は ${repository} にすでに存在します。そのブランチを続けるか、別の名前を選んでください。`,
    branchMoved: ({ branch, git }) =>
      git
        ? `ブランチ "${branch}" をプッシュできませんでした。リモートブランチに、このワークスペースにないコミットがあります (${git})。`
        : `ブランチ "${branch}" をプッシュできませんでした。このワークスペースが取得した後に、リモートブランチが変わりました。`,
    pushFailed: ({ branch, when, git }) =>
      when === 'pushing'
        ? `ブランチ "${branch}" をプッシュできませんでした: ${git}。GitHub の認証情報にこのリポジトリへプッシュする権限があるか確認してください。`
        : `ブランチ "${branch}" をプッシュできませんでした。${when === 'listing' ? 'プッシュの前にリモートのブランチを読み取れませんでした' : 'プッシュを確認できませんでした'} (${git})。`,
    pushNotThere: ({ branch, sha, remoteSha }) =>
      remoteSha
        ? `ブランチ "${branch}" をプッシュできませんでした。リモートブランチは ${sha} ではなく ${remoteSha} を指しています。`
        : `ブランチ "${branch}" をプッシュできませんでした。リモートブランチがありません(${sha} を指しているはずでした)。`,
    branchConflict: ({ branch, side, files }) =>
      `作業中に誰かが \`${branch}\` にプッシュし、私の変更がその変更と競合しました${codeList(files, (list) => ` (${list})`)}。私の作業はブランチ \`${side}\` に残してあります。手動でマージするか、ここで私にメンションすれば現在のブランチの上でやり直します。`,
    revertConflict: ({ sha, files }) =>
      `${sha} の revert が ${files.join(', ') || '一部のファイル'} の後の変更と競合します。手作業で revert するか、それらの変更だけを取り消すよう Wrench に依頼してください。`,
    diskFull: ({ kept }) =>
      kept
        ? `Wrench のデータディレクトリのディスクがいっぱいになった（空き容量なし）ため、完了前に停止しました。作業は失われていません。ここまでの作業（コミット済みのものも未コミットのものも）は${kept.host ? ` Wrench ワーカー \`${kept.host}\` の` : ' Wrench のマシンの'} \`$WRENCH_DATA_DIR/held/${kept.id}.tree\` に${kept.days ? ` ${kept.days} 日間` : ''}保管しています。運用担当が空き容量を確保したら、もう一度メンションしてください。`
        : 'Wrench のデータディレクトリのディスクがいっぱい（空き容量なし）のため、実行は作業を始められませんでした。何も変更していません。運用担当が空き容量を確保したら、もう一度メンションしてください。',
  },
  answer: answerJa,
  review: {
    reviewOf: (subject, count) => `:mag: ${subject} のレビュー${count ? `: ${count}` : ''}`,
    onBranch: (repository, branch) => `${repository} の ${branch}`,
    noFindingsCount: '指摘なし',
    findingsCount: (total, counts) => `指摘 ${total} 件: ${counts}`,
    countOf: (count, label) => `${label} ${count} 件`,
    findings: '指摘事項',
    noFindings: '指摘事項はありません。問題として挙げる点は見つかりませんでした。',
    none: 'なし。',
    focusAreas: '重点項目',
    suggestedFix: '修正案:',
    onGitHub: 'GitHub',
    posted: (inline, url) => `コメントのみのレビューとして投稿しました(インラインコメント ${inline} 件)${url ? `: ${url}` : '。'}`,
    couldNotPost: (error) => `GitHub にレビューを投稿できませんでした(${error})。上の指摘事項はこれですべてです。`,
    noReport: 'レポートなしでレビューが終了しました。',
    incomplete: 'レビューは完了していません。',
    noSuchPull: (repository, number) => `:grey_question: \`${repository}\` にプルリクエスト #${number} はないため、レビューする対象がありません。`,
    checkNumber: (number) =>
      `番号を確認するか、プルリクエストが別のリポジトリにある場合はリポジトリを指定してください: \`review PR #${number} in owner/repo\`(または URL を貼り付けてください)。`,
  },
  notQueued: {
    task: 'タスク',
    triage: '調査',
    invalidJob: (what, error) =>
      `:x: この${what}をキューに追加できませんでした: ${error}。これは Wrench の不具合で、あなたの操作のせいではありません。もう一度メンションしても解決しません。管理者に知らせてください(詳細は Wrench のログにあります)。`,
    queueUnavailable: (what) =>
      `:x: ジョブキュー(Redis)が利用できないため、この${what}をキューに追加できませんでした。1 分ほどしてからもう一度メンションしてください。繰り返し失敗する場合は、管理者に \`wrench doctor\` の実行を依頼してください。`,
    unexpected: (what) =>
      `:x: 予期しないエラーのため、この${what}をキューに追加できませんでした。1 分ほどしてからもう一度メンションしてください。繰り返し失敗する場合は、管理者に Wrench のログの確認を依頼してください。`,
  },
  steered:
    '実行中のエージェントに渡しました。最初からやり直さずに、次のモデル呼び出しの前に読み込みます。それより先に実行が終わった場合は、ここで私をメンションするとフォローアップとして扱います。',
  steeredFromPage: (user) => `<@${user}> が実行ページから実行中のエージェントにメッセージを送りました:`,
  steeringUnread: (count) => `${count === 1 ? 'このメッセージ' : 'これらのメッセージ'}は最後の手順の後に届いたため、実行には読み込まれませんでした:`,
  steeringWrote: (name) => `${name} さんのメッセージ:`,
  personInThread: 'スレッドの参加者',
  steeringFollowUp: 'まだ必要なことを添えてここで私をメンションしてください。フォローアップとして対応します。',
  nothingRunning: 'このスレッドで実行中のものはありません。',
  restartedAfterInterruption: ':arrows_counterclockwise: 中断の後に Wrench が再起動しました。この実行は最初からやり直します。',
  restartedFromBranch: (branch: string) =>
    `:arrows_counterclockwise: 中断の後に Wrench が再起動しました。この実行は、前の試行が \`${branch}\` にプッシュしたコミットから続けます。`,
  help: (me) =>
    [
      `こんにちは。開発タスクを添えて ${me} をメンションしてください。このチャンネルのリポジトリで作業し、プルリクエストを作成します。`,
      `例: \`${me} src/lib/format.ts の formatBytes に 0、1023、1024 バイトのテストを追加して。npm test が通ること\``,
      `ほかにできること: \`${me} review PR #42\`、\`${me} src/cart.ts:88 の TypeError を修正して\`、\`${me} triage: 14:05 から checkout が 500 を返す\`。`,
    ].join('\n'),
  noRepository: (config) =>
    `このチャンネルはまだリポジトリに関連付けられていないため、どこで作業すればよいかわかりません。\nメッセージでリポジトリを指定するか(例: \`in acme/web\`)、\`wrench.config.yml\` でチャンネルを関連付けてください:\n${config}`,
  repositoryNotAllowed: (repository) =>
    `${repository} で作業することは許可されていません。\n管理者が \`wrench.config.yml\` の \`repos:\` にこのリポジトリ(または \`owner/*\` のようなパターン)を追加すると許可できます。`,
  sharedChannel:
    'ここでは Slack コネクトのチャンネルで Wrench に作業を依頼することはできません。管理者が `wrench.config.yml` で `access.sharedChannels: true` を設定すると許可できます。',
  instructionTooLong: (length, max) =>
    `この指示は ${length} 文字あります。受け付けられるのは最大 ${max} 文字です。短くするか、長い資料(ログやデータ)はファイルとして添付して参照してください。`,
  takingFailed:
    ':x: このリクエストの受け付け中に問題が発生したため、何も開始していません。1 分ほどしてからもう一度メンションしてください。繰り返し起きる場合は、管理者が `wrench doctor` を実行できます。',
  redisLostRetaken:
    ':warning: このリクエストを受け付けた後に Wrench の Redis がデータを失いました（空の状態で再起動しました）。キュー内の位置が失われましたが、コピーを保持していたので最初から受け付け直します。対応は不要です。',
  redisLostWhileRunning:
    ':warning: このリクエストの実行中に Wrench の Redis がデータを失いました（空の状態で再起動しました）。結果はまだここに届く可能性があります。数分たっても届かない場合は、もう一度依頼してください。',
  runSilentEnded: (minutes, limit) =>
    `:warning: この実行は ${minutes} 分前に始まり終了しましたが、結果もエラーもこのスレッドに届いていません（制限時間は ${limit} 分）。Wrench 側で問題が起きました。もう一度依頼してください。`,
  runSilentRunning: (minutes, limit) =>
    `:warning: この実行は ${minutes} 分前に始まり、制限時間の ${limit} 分を過ぎましたが、まだ結果を送っていません。止まっている可能性があります。結果はまだ届くかもしれません。届かなければ停止して、もう一度依頼してください。`,
  mentionDropped: (attempts) =>
    `:x: このリクエストを受け付けられませんでした: 処理が ${attempts} 回失敗しました。何も開始していません。もう一度試すには、もう一度メンションしてください。`,
  notAuthorized:
    'ここで Wrench に作業を依頼できる人のリストに、あなたは含まれていません。管理者に、あなたの Slack ユーザー ID を `wrench.config.yml` の `access.users` に追加するよう依頼してください。',
  triage: {
    queued: (repository) => `:mag: 調査を受け付けました: ${repository} を読み取り専用で(最近の変更とコードを)調べ、ここで報告します。`,
    working: (detail) => `:mag: 調査: ${detail}`,
    investigating: '調査中',
    finished: (elapsed) => `:white_check_mark: 調査が完了しました(${elapsed})`,
    failedAfter: (elapsed) => `:x: 調査に失敗しました(${elapsed})`,
    cancelled: ':no_entry_sign: 調査をキャンセルしました',
    failed: (message) => `:x: 調査に失敗しました。${message}`,
    reportOf: (subject) => `:mag: *${subject} の調査*`,
    reportSummary: (subject, verdict) => `${subject} の調査: ${verdict}`,
    verdict: '*結論*(エージェントの見解):',
    whatIsGoingOn: '*何が起きているか*(エージェントの見解)',
    noGoodLead: '*有力な手がかりなし。* 原因を示す証拠が見つからなかったため、推測はしません。',
    hypothesis: '*仮説*(エージェントによる。裏付けとなる証拠は見つからず、確度は低)',
    likelyCause: (confidence) => `*考えられる原因*(エージェントの見解、確度: *${confidence}*)`,
    confidence: { low: '低', medium: '中', high: '高' },
    evidence: '*証拠*(エージェントが挙げたもの。リンクは Wrench が付けています)',
    suspectCommits: (branch) => `*疑わしいコミット*(可能性の高い順、${branch} 上。理由はエージェントによる)`,
    notOnBaseBranch: '_(ベースブランチに見つかりません)_',
    ruledOut: '*除外したもの*(エージェントによる)',
    nextSteps: '*次のステップ*(エージェントの提案)',
    couldNotRead: '*読み取れなかったもの*(レポートは他の証拠に基づいています)',
    openFixPr: '修正 PR を作成',
    revert: (sha) => `${sha} を revert`,
    revertQuestion: (sha) => `${sha} を revert しますか?`,
    revertExplained: (sha, branch) =>
      `Wrench は ${branch} から新しいブランチを作って ${sha} を revert し、テストを実行してドラフトのプルリクエストを作成します。マージはしません。`,
    openRevertPr: 'revert PR を作成',
    dismiss: '却下',
    approversOnly: 'これらのボタンは承認者だけが使えます。',
    actions: '調査のアクション',
    dismissedBy: (user) => `:no_entry_sign: <@${user}> が却下しました`,
    approversOnlyAction: (action) =>
      `調査の「${action}」を使えるのは承認者だけです。wrench.config.yml の \`access.approvers\` に載っている人に依頼してください。`,
    revertAlready: (sha) => `${sha} の revert はこの調査からすでに依頼されています。`,
    fixAlready: 'この調査からすでに修正の実行が始まっています。スレッドで進捗を確認してください。',
    reverting: (sha, base, user) => `:rewind: ${user} の依頼で ${base} の ${sha} を revert しています: ブランチを準備中`,
    revertDoing: (sha, what) => `:rewind: ${sha} を revert しています: ${what}`,
    revertWorking: '作業中',
    revertFailed: (sha, message) => `:x: ${sha} の revert に失敗しました: ${message}`,
    revertOpened: (number, sha, url, verdict) => `:rewind: ${sha} を revert するドラフト PR #${number} を作成しました: ${url}\n${verdict}`,
    revertNoChecks: 'revert の後にチェックは実行されていません。',
    revertOpenAlready: (sha, number, url) =>
      `:information_source: ${sha} はすでに PR #${number} で revert 中です: ${url}。新たにプッシュしたものはありません。`,
    revertNotOnBase: (sha, base) =>
      `:warning: ${sha} はもう ${base} にありません(force push されたか、マージされていません)。revert するものはありません。何もプッシュしていません。`,
    revertConflict: (sha, why) => `:warning: ${sha} をきれいに revert できませんでした: ${why} 何もプッシュしていません。`,
    revertBranchExists: (branch) =>
      `:information_source: ブランチ ${branch} が、開いているプルリクエストなしですでに存在します。削除して(またはそこから PR を作成して)から、もう一度 Revert を押してください。何もプッシュしていません。`,
  },
  cancelNotAllowed: 'この実行をキャンセルできるのは、依頼した人か承認者だけです。',
  github: {
    closed: (pull, by, merged) =>
      `${pull.link(`プルリクエスト #${pull.number}`)} は @${by} によって${merged ? 'マージされました' : 'マージされずにクローズされました'}。このスレッドの作業は完了です。新しいことを始めるには、ここで私をメンションしてください(新しいブランチとプルリクエストで行います)。${merged ? '' : 'プルリクエストが再オープンされた場合は、このスレッドで続けます。'}`,
    reopenedBusy: (pull, by) =>
      `${pull.link(`プルリクエスト #${pull.number}`)} は @${by} によって再オープンされましたが、このスレッドではその後別の作業を始めたため、ここではそのプルリクエストを続けません。作業するには、プルリクエストで私をメンションしてコメントするか、新しいスレッドを始めてください。`,
    reopened: (pull, by, branch) =>
      `${pull.link(`プルリクエスト #${pull.number}`)} は @${by} によって再オープンされました。このスレッドが${branch ? ` ${branch} で` : ''}引き継ぎます。続けるには、ここで私をメンションするか、プルリクエストにコメントしてください。`,
    commentLead: (kind, author, pull, place) =>
      `@${author} が ${pull.link(`プルリクエスト #${pull.number}`)}${place ? ` の ${place}` : ' '}${{ review: 'で変更を依頼しました', 'review-comment': 'にコメントしました', comment: 'に書き込みました' }[kind]}:`,
    reviewLead: (author, pull, changesRequested, count) =>
      `@${author} が ${pull.link(`プルリクエスト #${pull.number}`)} を${changesRequested ? 'レビューし、変更を依頼しました' : 'レビューしました'}(コメント ${count} 件):`,
    place: (path, line, startLine) =>
      line === null ? path : startLine !== null && startLine !== line ? `${path} の ${startLine}–${line} 行目` : `${path} の ${line} 行目`,
    continuing: (branch) => `${branch ? `${branch} で` : 'ブランチで'}引き続き対応します。`,
    baseFails: (checks, _count, pull, base, baseSha) =>
      `${checks} が ${pull.link(`プルリクエスト #${pull.number}`)} で失敗しましたが、${base}(${baseSha})でも失敗しているため、この変更が原因ではありません。修正ラウンドは開始しません。先に ${base} で修正するか、ここで私をメンションして何をすべきか伝えてください。`,
    fixLimit: (checks, _count, number, done) =>
      `${checks} はプルリクエスト #${number} で ${done} 回の修正ラウンド(上限、\`github.maxFixRounds\`)の後も失敗しているため、もう試しません。ここからは人による対応が必要です。`,
    failingRun: '失敗した実行を見る',
    noEvidence: (checks, _count, pull, head) =>
      `${checks} が ${pull.link(`プルリクエスト #${pull.number}`)}(head ${head})で失敗しましたが、原因について何も読み取れませんでした(ログ、出力、アノテーションのいずれもありません)。推測で修正ラウンドを使うことはしません。失敗したチェックを開いて、何を直すべきかここで教えてください。`,
    fixRound: (checks, _count, pull, head, round, of, earlier) =>
      `${checks} が ${pull.link(`プルリクエスト #${pull.number}`)}(head ${head})で${earlier ? `修正ラウンド ${earlier.round} の後も失敗しています` : '失敗しました'}。修正ラウンド ${round}/${of}: CI の報告内容を確認しています。`,
    passed: (checks, _count, pull, head, round) =>
      `修正ラウンド ${round} の後、${checks} が ${pull.link(`プルリクエスト #${pull.number}`)}(head ${head})で成功しました。`,
    statusFailed: (context, pull, head, description, details) =>
      `${context} が ${pull.link(`プルリクエスト #${pull.number}`)}(head ${head})で失敗を報告しました${description ? `: 「${description}」` : ''}。${details ? `詳細: ${details('CI の実行')}。` : ''}ここからはその CI のログを読めないため、推測で修正ラウンドを始めることはしません。失敗した出力をここに貼り付けるか、何を直すべきか教えてください。`,
    couldNotAct: (kind, by, pull, error) =>
      `${pull.link(`プルリクエスト #${pull.number}`)} での${by ? ` @${by} の` : ''}${EVENT_WORDS_JA[kind] ?? 'イベント'}に対応できませんでした: ${error}。これが解決したら、GitHub App の設定(Advanced → Recent Deliveries)から再配信するか、どうすればよいかここで伝えてください。`,
  },
};
