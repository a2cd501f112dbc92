/**
 * A request to rewrite or port a whole system: too large to do or verify in one task, in any language the reader
 * supports. Read clause by clause from general cues rather than phrases: a rewrite or port verb, and either the
 * whole of something (whole, entire, everything, from scratch), or a system as its object (the backend, the app,
 * the codebase) or no object at all, moved to another language or framework. A scoped object (a function, a
 * table, a file) keeps the request a task: "port this function to Rust", "migrate the users table".
 */

/** Programming languages and application frameworks a system is rewritten in; not data formats or test runners. */
const TARGET = String.raw`(?:rust|go|golang|kotlin|java|scala|clojure|python|ruby|php|perl|elixir|erlang|haskell|ocaml|f#|c#|c\+\+|c|zig|nim|crystal|dart|swift|objective-c|typescript|javascript|node(?:\.?js)?|deno|bun|lua|julia|\.net|dotnet|react|vue(?:\.js)?|angular|svelte|next(?:\.js)?|nuxt|django|flask|fastapi|rails|laravel|spring(?: boot)?|express|nestjs|flutter|react native|swiftui|jetpack compose|elm|clojurescript|webassembly|wasm)`;
/**
 * The target after a preposition ("in Rust", "to Go", "nach Kotlin", "en Go", "用Rust") or before a particle
 * ("Rustで"), not followed by a version: an upgrade ("Java 7 to Java 8") is not a rewrite.
 */
const TARGET_LANGUAGE = new RegExp(
  String.raw`(?:(?:\b(?:in|into|to|using|with|towards|onto|nach|zu|auf|en|em|para|a|vers|su)\s+(?:the\s+|plain\s+|modern\s+)?|[用成到]\s*)${TARGET}|(?<![\w.#+-])${TARGET}\s*(?:で|に|へ))(?![\w#+]|\.\w|\s*v?\d)`,
  'i',
);

interface LanguageCues {
  /** Rewrite, port, redo, reimplement, start over: a verb that remakes what it names. */
  verb: RegExp;
  /** Migrate, convert, move, switch: a rewrite only towards another language or framework. */
  weakVerb: RegExp;
  /** Whole, entire, everything, from scratch... */
  whole: RegExp;
  /** The backend, the app, the codebase: a whole system named as the object. */
  system: RegExp;
  /** A function, a file, a table: an object that keeps the work scoped. */
  scoped: RegExp;
  /** Words that name no object: pronouns, articles, politeness, prepositions. */
  filler: RegExp;
}

const CUES: LanguageCues[] = [
  {
    verb: /\b(?:re-?writ(?:e|es|ing|ten)|rewrote|re-?build(?:s|ing)?|rebuilt|redo(?:ing)?|redone|re-?implement\w*|re-?architect\w*|re-?creat\w*|re-?do|port(?:s|ed|ing)?|start(?:ing)? (?:over|again|afresh|from scratch))\b/i,
    weakVerb: /\b(?:migrat\w*|convert\w*|translat\w*|mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|transition\w*)\b/i,
    whole:
      /\b(?:whole|entire(?:ly)?|complete(?:ly)?|full|total|everything|all of (?:it|the|our)|from (?:scratch|the ground up|zero)|ground[- ]up|big[- ]bang|start(?:ing)? over)\b/i,
    system:
      /\b(?:back[- ]?end|front[- ]?end|app|application|apps|code ?base|code|project|system|platform|stack|monolith|product|site|website|repo|repository|server|infrastructure|infra|everything|thing)\b/i,
    scoped:
      /\b(?:functions?|methods?|class(?:es)?|files?|modules?|components?|tests?|specs?|tables?|columns?|endpoints?|routes?|scripts?|quer(?:y|ies)|pages?|parsers?|helpers?|hooks?|handlers?|utils?|utilities|messages?|readme|docs?|documentation|config(?:uration)?|migrations?|schemas?|jobs?|workers?|commands?|snippets?|loops?|regex(?:es)?|algorithms?|controllers?|views?|models?|screens?|forms?|buttons?|styles?|css|sql|dependenc(?:y|ies)|packages?|library|libraries|lib|client|sdk|wrapper|plugins?|widgets?|dialogs?|modals?|logic|lambdas?|cron|build|pipeline|ci|dockerfile|makefile|types?|interfaces?|enums?|structs?|crates?|section|part|piece|bit|example|exporter|importer|service|microservice|tool|cli)\b/i,
    filler:
      /^(?:it|this|that|them|the|a|an|our|my|in|to|into|using|with|over|again|from|scratch|just|please|pls|let'?s|lets|can|could|would|you|we|i|should|need|want|now|maybe|also|and|so|all|of|entire|whole|complete|completely|full|fully|ok|hey|hi|go)$/i,
  },
  {
    // German: "schreib das ganze Backend in Rust neu", "die gesamte Anwendung nach Go portieren", "von Grund auf neu".
    verb: /\b(?:neu ?(?:schreib|geschrieben|implementier|bau|aufbau|aufgebaut|entwickel|machen|gemacht)\w*|schreib\w*\b[^.!?]*\bneu\b|umschreib\w*|umzuschreiben|umgeschrieben|portier\w*)/i,
    weakVerb: /\b(?:migrier\w*|umstell\w*|umgestellt|überführ\w*|konvertier\w*|übersetz\w*)/i,
    whole: /\b(?:ganze[nmrs]?|gesamte[nmrs]?|komplett\w*|vollständig\w*|alles|von grund auf|von vorne?|von null)\b/i,
    system:
      /\b(?:backend|frontend|anwendung|app|applikation|system|codebasis|code|quellcode|projekt|plattform|stack|monolith|produkt|webseite|website|repo|repository|server)\b/i,
    scoped:
      /\b(?:funktion\w*|methode\w*|klasse\w*|datei\w*|modul\w*|komponente\w*|tests?|tabelle\w*|spalte\w*|endpunkt\w*|skript\w*|abfrage\w*|seite\w*|parser|\w*meldung\w*|dokumentation|konfiguration|dienst\w*|service)\b/i,
    filler:
      /^(?:es|das|den|die|der|dem|unser\w*|mein\w*|in|nach|auf|mit|bitte|einfach|mal|neu|wir|du|sie|ihr|sollten|sollen|müssen|kannst|können|und|jetzt|doch)$/i,
  },
  {
    // Spanish and Portuguese: "reescribir todo el backend en Rust", "migrar todo o projeto para Go", "desde cero", "do zero".
    verb: /\b(?:reescri\w*|reescrev\w*|rehac\w*|rehaz|refaz\w*|refaç\w*|reimplement\w*|port(?:ar|a|e|ando|ear)|reconstru\w*)\b/i,
    weakVerb: /\b(?:migr(?:ar|a|e|ando|emos)|convert(?:ir|er|e|a)|traduc\w*|traduz\w*|pas(?:ar|a|e|sar|sa))\b/i,
    whole: /\b(?:tod[oa]s? (?:el|la|los|las|o|a|os|as)|enter[oa]|inteir[oa]|complet[oa]|totalmente|todo|tudo|desde cero|de cero|do zero|desde el principio)\b/i,
    system:
      /\b(?:backend|frontend|aplicaci[oó]n|aplica[cç][aã]o|aplicativo|app|sistema|proyecto|projeto|c[oó]digo|plataforma|stack|monolito|producto|produto|sitio|site|repositorio|reposit[oó]rio|servidor)\b/i,
    scoped:
      /\b(?:funci[oó]n|fun[cç][aã]o|m[eé]todo|clase|classe|archivo|arquivo|m[oó]dulo|componente|pruebas?|testes?|tablas?|tabelas?|columna|coluna|endpoint|script|consulta|p[aá]gina|mensaje|mensagem|servicio|servi[cç]o)\b/i,
    filler:
      /^(?:lo|la|el|o|a|los|las|os|as|en|em|a|al|para|con|com|por|favor|nuestro|nuestra|nosso|nossa|mi|meu|minha|de|del|do|da|todo|tudo|y|e|ahora|agora)$/i,
  },
  {
    // French and Italian: "réécrire toute l'application en Go", "riscrivere tutto il progetto in Rust", "à partir de zéro", "da zero".
    verb: /(?:\b|(?<=[ld]'))(?:réécri\w*|reecri\w*|refai\w*|refaire|réimplément\w*|reconstrui\w*|riscriv\w*|rifa\w*|reimplementa\w*|ricostrui\w*|porter|portare)\b/i,
    weakVerb: /\b(?:migrer|migre[rz]?|convertir|tradui\w*|migrare|convertire|tradurre|passer|passare)\b/i,
    whole:
      /\b(?:tout(?:e|es)?|entier|entière|complet|complète|complètement|à partir de zéro|de zéro|tutt[oa]|tutti|intero|intera|completo|completamente|da zero|da capo)\b/i,
    system:
      /(?:\b|(?<=[ld]'))(?:backend|frontend|application|appli|app|applicazione|système|sistema|projet|progetto|code|codice|plateforme|piattaforma|stack|monolithe|monolite|produit|prodotto|site|sito|dépôt|repo|serveur|server)\b/i,
    scoped:
      /\b(?:fonction|funzione|méthode|metodo|classe|fichier|file|module|modulo|composant|componente|tests?|tables?|tabella|colonne|colonna|endpoint|script|requête|query|page|pagina|message|messaggio|service|servizio)\b/i,
    filler: /^(?:le|la|les|l|il|lo|en|in|à|a|au|vers|avec|con|s'il|vous|plaît|per|favore|notre|nostro|nostra|mon|ma|mio|mia|tout|tutto|et|e|maintenant|ora)$/i,
  },
  {
    // Japanese and Chinese: "バックエンド全体をRustで書き直して", "一から作り直す", "用Rust重写整个后端", "全部重写".
    verb: /書き直|書きなお|作り直|作りなお|再実装|再構築|移植|リライト|重写|重寫|重新(?:实现|實現|编写|編寫|开发|開發|构建|構建|做)|改写|改寫/,
    weakVerb: /移行|置き換え|書き換え|迁移|遷移|转换|轉換/,
    whole: /全体|全部|すべて|全て|丸ごと|まるごと|一から|ゼロから|最初から|整个|整個|所有|从头|從頭|从零|從零|全面/,
    system:
      /バックエンド|フロントエンド|アプリ|システム|コードベース|コード|プロジェクト|プラットフォーム|製品|サイト|后端|後端|前端|应用|應用|系统|系統|项目|項目|代码库|代碼庫|代码|代碼|平台|产品|網站|网站/,
    scoped:
      /関数|メソッド|クラス|ファイル|テーブル|モジュール|テスト|コンポーネント|メッセージ|サービス|函数|函數|方法|类|類|文件|檔案|表|模块|模塊|测试|測試|组件|組件|服务|服務/,
    filler: /^$/,
  },
];

/** Nouns for the rewrite itself: "a full rewrite", "Rust rewrite", "eine komplette Neuentwicklung". */
const REWRITE_NOUN = /\b(?:(?:full|complete|total|whole|big[- ]bang|ground[- ]up)[- ](?:re-?write|rebuild|re-?implementation|port))\b|\bneuentwicklung\b/i;
const LANGUAGE_REWRITE = new RegExp(String.raw`(?<![\w.#+-])${TARGET}[- ]re-?write\b`, 'i');
/** Throwing a system away: "scrap the backend and start over". */
const DISCARD =
  /\b(?:throw (?:away|out)|scrap|ditch|nuke)\s+(?:the |our |this )?(?:current |existing |whole |entire |old |legacy )?(?:back[- ]?end|front[- ]?end|app|application|system|platform|code ?base|stack|project|monolith)\b/i;
const MICROSERVICES =
  /\b(?:split|break(?:ing)? up|decompose|carve up|migrate|move|turn)\s+(?:the|our|this)\s+(?:whole\s+|entire\s+)?(?:monolith|back[- ]?end|app|application|system|platform)\s+(?:in)?to\s+micro-?services\b/i;
const CLONE = /\bbuild\s+(?:an?\s+)?(?:entire|whole|complete|full)?\s*(?:clone|copy|replica|replacement)\s+(?:of|for)\s+(?:[A-Z]\w+|the whole)/i;
/** A code object named by its spelling: a path, a backticked name, a call, a source file. */
const NAMED_CODE = /`[^`]+`|\b[\w-]+\/[\w./-]+|\b\w+\.(?:ts|js|py|go|rs|java|kt|rb|php|cs|cpp|c|h|sql)\b|\b\w+\(\)/;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Particles and politeness around a Japanese or Chinese request: what is left names the object, if any. */
const CJK_FILLER = /[をでにへはがのもとてしくださいますせんかうよねおねがい用把将將请請要我们們的成到全部体體一从從头頭零最初]|して|ほしい|もらえ|お願い/gu;

const EVERYTHING = /\b(?:everything|thing)\b/i;
const TRANSLATION = /translat|übersetz|traduc|traduz|tradui|tradurre/i;

/** Sentences and clauses: the cues of a rewrite must meet in one of them. */
const CLAUSE = /[.!?;。！？\n]+|\s+(?:but|and then|then|aber|mais|pero|mas|ma)\s+/i;

export function isWholeRewrite(text: string): boolean {
  if (REWRITE_NOUN.test(text) || LANGUAGE_REWRITE.test(text) || DISCARD.test(text) || MICROSERVICES.test(text) || CLONE.test(text)) return true;
  const namesCode = NAMED_CODE.test(text);
  return text.split(CLAUSE).some((clause) => CUES.some((cues) => wholeRewriteClause(clause, cues, namesCode)));
}

function wholeRewriteClause(clause: string, cues: LanguageCues, namesCode: boolean): boolean {
  const strong = cues.verb.test(clause);
  if (!strong && !cues.weakVerb.test(clause)) return false;
  const towardsLanguage = TARGET_LANGUAGE.test(clause.replace(/`[^`]*`|"[^"]*"/g, ' '));
  const scoped = cues.scoped.test(clause) || namesCode;
  const system = cues.system.test(clause);
  // "rewrite the whole backend", "start over from scratch", "migrate the entire codebase to TypeScript".
  if (cues.whole.test(clause)) {
    if (strong && (system || !cues.scoped.test(clause))) return true;
    // Moving the whole of a system elsewhere: "migrate our entire infrastructure to GCP"; translating its text is not.
    if (towardsLanguage || (system && !namesCode && !EVERYTHING.test(clause) && !TRANSLATION.test(clause))) return true;
  }
  // "port the app to Go", "Rewrite in Rust", "redo it in Kotlin": a system, or nothing else, moved to another language.
  return towardsLanguage && !scoped && (system || objectless(clause, cues));
}

/** "Rewrite in Rust", "just rewrite it in Go", "Rustで書き直して": the verb's object is absent or a pronoun. */
function objectless(clause: string, cues: LanguageCues): boolean {
  const rest = clause.replace(cues.verb, ' ').replace(cues.weakVerb, ' ').replace(new RegExp(TARGET_LANGUAGE.source, 'gi'), ' ');
  if (CJK.test(rest)) return rest.replace(CJK_FILLER, '').replace(/[^\p{L}]/gu, '').length <= 1;
  return (rest.match(/[\p{L}\p{N}']+/gu) ?? []).every((word) => cues.filler.test(word));
}
