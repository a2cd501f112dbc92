import type { RemovalReason } from './citations.js';

/**
 * Wrench's own words around an answer to a question about the code, in English: the source the thread catalogues
 * (src/slack/strings/) take their translations from, and the fallback. The agent's answer is shown as it wrote it,
 * marked as its account; repository, branch, commit and citations are filled in as they are.
 */
export const answerEn = {
  /** `repository` and `branch` in backticks, `commit` the short SHA (linked where the repository has a web page). */
  headline: (repository: string, branch: string, commit: string) => `:speech_balloon: Answer about ${repository} on ${branch} at ${commit}`,
  answer: 'Answer',
  notFound: 'Not found in the code',
  removedTitle: 'Citations removed',
  removedIntro: (commit: string) => `These citations did not hold at ${commit}, so I removed them:`,
  removed: (ref: string, reason: RemovalReason, lines?: number) =>
    `\`${ref}\`: ${
      {
        'no-such-file': 'no such file at this commit',
        'not-a-file': 'a directory, not a file',
        'beyond-end': `the file has ${lines ?? 0} line${lines === 1 ? '' : 's'}`,
        'outside-repository': 'not a path inside the repository',
        invalid: 'not a valid line range',
      }[reason]
    }`,
  /** Where a removed citation stood in the agent's text. */
  removedMark: '(citation removed)',
  /** After a claim whose every citation was removed. */
  uncited: '(no citation left)',
  noAnswer: 'The run ended without an answer.',
  incomplete: 'The answer is incomplete.',
};

export type AnswerStrings = typeof answerEn;

export const answerDe: AnswerStrings = {
  headline: (repository, branch, commit) => `:speech_balloon: Antwort zu ${repository} auf ${branch} bei ${commit}`,
  answer: 'Antwort',
  notFound: 'Im Code nicht gefunden',
  removedTitle: 'Entfernte Belegstellen',
  removedIntro: (commit) => `Diese Belegstellen stimmten bei ${commit} nicht, daher habe ich sie entfernt:`,
  removed: (ref, reason, lines) =>
    `\`${ref}\`: ${
      {
        'no-such-file': 'diese Datei gibt es in diesem Commit nicht',
        'not-a-file': 'ein Verzeichnis, keine Datei',
        'beyond-end': `die Datei hat ${lines ?? 0} ${lines === 1 ? 'Zeile' : 'Zeilen'}`,
        'outside-repository': 'kein Pfad im Repository',
        invalid: 'kein gültiger Zeilenbereich',
      }[reason]
    }`,
  removedMark: '(Belegstelle entfernt)',
  uncited: '(keine Belegstelle übrig)',
  noAnswer: 'Der Lauf endete ohne Antwort.',
  incomplete: 'Die Antwort ist unvollständig.',
};

export const answerEs: AnswerStrings = {
  headline: (repository, branch, commit) => `:speech_balloon: Respuesta sobre ${repository} en ${branch} en ${commit}`,
  answer: 'Respuesta',
  notFound: 'No encontrado en el código',
  removedTitle: 'Citas eliminadas',
  removedIntro: (commit) => `Estas citas no eran válidas en ${commit}, así que las eliminé:`,
  removed: (ref, reason, lines) =>
    `\`${ref}\`: ${
      {
        'no-such-file': 'no existe ese archivo en este commit',
        'not-a-file': 'es un directorio, no un archivo',
        'beyond-end': `el archivo tiene ${lines ?? 0} ${lines === 1 ? 'línea' : 'líneas'}`,
        'outside-repository': 'no es una ruta dentro del repositorio',
        invalid: 'no es un rango de líneas válido',
      }[reason]
    }`,
  removedMark: '(cita eliminada)',
  uncited: '(sin citas válidas)',
  noAnswer: 'La ejecución terminó sin respuesta.',
  incomplete: 'La respuesta está incompleta.',
};

export const answerFr: AnswerStrings = {
  headline: (repository, branch, commit) => `:speech_balloon: Réponse sur ${repository}, branche ${branch}, au commit ${commit}`,
  answer: 'Réponse',
  notFound: 'Introuvable dans le code',
  removedTitle: 'Références retirées',
  removedIntro: (commit) => `Ces références ne tenaient pas au commit ${commit}, je les ai donc retirées :`,
  removed: (ref, reason, lines) =>
    `\`${ref}\` : ${
      {
        'no-such-file': 'ce fichier n’existe pas dans ce commit',
        'not-a-file': 'un répertoire, pas un fichier',
        'beyond-end': `le fichier a ${lines ?? 0} ${lines === 1 || lines === 0 ? 'ligne' : 'lignes'}`,
        'outside-repository': 'pas un chemin du dépôt',
        invalid: 'pas une plage de lignes valide',
      }[reason]
    }`,
  removedMark: '(référence retirée)',
  uncited: '(plus aucune référence)',
  noAnswer: 'L’exécution s’est terminée sans réponse.',
  incomplete: 'La réponse est incomplète.',
};

export const answerPt: AnswerStrings = {
  headline: (repository, branch, commit) => `:speech_balloon: Resposta sobre ${repository} na branch ${branch} no commit ${commit}`,
  answer: 'Resposta',
  notFound: 'Não encontrado no código',
  removedTitle: 'Citações removidas',
  removedIntro: (commit) => `Estas citações não valiam em ${commit}, então eu as removi:`,
  removed: (ref, reason, lines) =>
    `\`${ref}\`: ${
      {
        'no-such-file': 'esse arquivo não existe neste commit',
        'not-a-file': 'um diretório, não um arquivo',
        'beyond-end': `o arquivo tem ${lines ?? 0} ${lines === 1 ? 'linha' : 'linhas'}`,
        'outside-repository': 'não é um caminho dentro do repositório',
        invalid: 'não é um intervalo de linhas válido',
      }[reason]
    }`,
  removedMark: '(citação removida)',
  uncited: '(nenhuma citação restante)',
  noAnswer: 'A execução terminou sem resposta.',
  incomplete: 'A resposta está incompleta.',
};

export const answerJa: AnswerStrings = {
  headline: (repository, branch, commit) => `:speech_balloon: ${repository} の ${branch}（${commit}）についての回答`,
  answer: '回答',
  notFound: 'コード内で見つからなかったこと',
  removedTitle: '削除した引用',
  removedIntro: (commit) => `次の引用は ${commit} の時点で正しくなかったため削除しました：`,
  removed: (ref, reason, lines) =>
    `\`${ref}\`：${
      {
        'no-such-file': 'このコミットにそのファイルはありません',
        'not-a-file': 'ファイルではなくディレクトリです',
        'beyond-end': `ファイルは ${lines ?? 0} 行しかありません`,
        'outside-repository': 'リポジトリ内のパスではありません',
        invalid: '有効な行範囲ではありません',
      }[reason]
    }`,
  removedMark: '（引用を削除）',
  uncited: '（有効な引用なし）',
  noAnswer: '回答のないまま実行が終了しました。',
  incomplete: '回答は不完全です。',
};

export const answerZh: AnswerStrings = {
  headline: (repository, branch, commit) => `:speech_balloon: 关于 ${repository}（${branch}，提交 ${commit}）的回答`,
  answer: '回答',
  notFound: '在代码中未找到',
  removedTitle: '已删除的引用',
  removedIntro: (commit) => `以下引用在 ${commit} 处不成立，因此已删除：`,
  removed: (ref, reason, lines) =>
    `\`${ref}\`：${
      {
        'no-such-file': '该提交中没有这个文件',
        'not-a-file': '这是目录，不是文件',
        'beyond-end': `该文件只有 ${lines ?? 0} 行`,
        'outside-repository': '不是仓库内的路径',
        invalid: '不是有效的行范围',
      }[reason]
    }`,
  removedMark: '（引用已删除）',
  uncited: '（没有剩余的引用）',
  noAnswer: '运行结束时没有回答。',
  incomplete: '回答不完整。',
};
