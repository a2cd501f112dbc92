import type { Category } from '../categories.js';

/**
 * Whether an instruction is written in a language the rules cannot read. The rules' cues are English; rather
 * than guess from a stray English word, a reading of such text says so and leaves the verdict to the model.
 * Code spans, URLs and paths are ignored: only the prose counts.
 */
const OTHER_SCRIPTS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Thai}\p{Script=Greek}]/gu;

const ENGLISH = new Set(
  `the a an and or to of in on at for with from by is are was were be been it this that these those when what which who how
  should must can could would will not no but if then so we you i my our your add fix make use update create remove change please`.split(/\s+/),
);

/** Frequent function words of the other languages people write tasks in (German, Spanish, Portuguese, French, Italian, Dutch). */
const OTHER_LANGUAGES = new Set(
  `der die das den dem des und ist sind nicht ein eine einen mit für auf auch sollst soll werden wird bitte wenn oder zu von im
  de en el la los las un una unos y es son para por con del al que se mi tu su como pero más esta este estos
  os as um uma não com sem por para seu sua mais muito também ao aos da do das dos em na no nas nos
  le les une des et est sont pour dans avec sur pas qui que ce cette ces au aux du
  il lo gli della delle che sono per con una non anche
  het een en van voor niet met zijn wordt op ook`.split(/\s+/),
);

/** The prose without code spans, URLs and paths. */
const proseOnly = (prose: string) =>
  prose
    .replace(/```[\s\S]*?```|`[^`\n]*`/g, ' ')
    .replace(/\b(?:https?|ftp):\/\/\S+/g, ' ')
    .replace(/\S*[/\\]\S*/g, ' ');

export function unreadableLanguage(prose: string): boolean {
  const text = proseOnly(prose);
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return false;
  if ((text.match(OTHER_SCRIPTS)?.length ?? 0) / letters > 0.3) return true;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 5) return false;
  const english = words.filter((word) => ENGLISH.has(word)).length;
  const other = words.filter((word) => OTHER_LANGUAGES.has(word) && !ENGLISH.has(word)).length;
  return other >= 2 && other > english;
}

/** Function words that belong to one language each; a word two of them share ("de", "que", "en") tells nothing. */
const FUNCTION_WORDS: Record<string, string> = {
  de: 'der die das den dem des und ist sind nicht ein eine einen mit für auf auch soll sollte wird werden bitte wenn oder zu von im ich wir es dass beim nach',
  es: 'de en la el los las y es son para por con del al que se pero más esta este estos una cuando hay está muy también',
  fr: 'de en la le les une des et est sont pour dans avec sur pas qui que ce cette ces au aux du je nous vous il elle quand',
  pt: 'de a os as um uma não com sem ao aos da do das dos em na no nas nos é são para mais também quando',
  it: 'la il lo gli della delle che sono per con una non anche è di quando',
  nl: 'het een en van voor niet met zijn wordt op ook de wanneer',
};
const OWNER = (() => {
  const owners = new Map<string, string[]>();
  for (const [language, words] of Object.entries(FUNCTION_WORDS))
    for (const word of new Set(words.split(' '))) owners.set(word, [...(owners.get(word) ?? []), language]);
  return new Map([...owners].flatMap(([word, languages]) => (languages.length === 1 && languages[0] ? [[word, languages[0]] as const] : [])));
})();

/** Frequent characters written differently in Simplified and Traditional Chinese (the same words, in the same order). */
const SIMPLIFIED_ONLY = /[这个们说时会点击应题试测请让发现错误进实页数据库没还条从对问]/gu;
const TRADITIONAL_ONLY = /[這個們說時會點擊應題試測請讓發現錯誤進實頁數據庫沒還條從對問]/gu;

/**
 * The language text the rules cannot read is written in (BCP 47 primary subtag), when its letters or function words
 * say so clearly: kana is Japanese, Hangul Korean, Han alone Chinese; in Latin script, the language whose own function
 * words are the most, by a margin. Undefined when unsure: the requester's Slack locale decides then.
 */
export function writtenLanguage(prose: string): string | undefined {
  const text = proseOnly(prose);
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return undefined;
  const share = (script: RegExp) => (text.match(script)?.length ?? 0) / letters;
  if (share(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu) > 0.05) return 'ja';
  if (share(/\p{Script=Hangul}/gu) > 0.3) return 'ko';
  if (share(/\p{Script=Han}/gu) > 0.3) {
    // Frequent characters each script writes its own way: Traditional ones outnumbering Simplified ones say zh-Hant.
    const count = (script: RegExp) => text.match(script)?.length ?? 0;
    return count(TRADITIONAL_ONLY) > count(SIMPLIFIED_ONLY) ? 'zh-Hant' : 'zh';
  }
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const language = OWNER.get(word);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const [first, second] = [...counts].sort((a, b) => b[1] - a[1]);
  return first && first[1] >= 2 && first[1] > (second?.[1] ?? 0) ? first[0] : undefined;
}

/** An issue template left unfilled, in the other languages people write tasks in: "请补充", "bitte ergänzen", "à compléter". */
const FOREIGN_PLACEHOLDER =
  /请补充|請補充|待补充|待補充|请填写|請填寫|記入してください|ここに記入|補足してください|bitte (?:ergänzen|ausfüllen|hier)|hier (?:beschreiben|einfügen|eintragen)|por completar|completar aquí|completa aquí|describ[ae] aquí|à compléter|décri(?:re|vez) ici|a completare|descrivi qui|preencher|descreva aqui/i;

export function unfilledForeignTemplate(prose: string): boolean {
  return FOREIGN_PLACEHOLDER.test(prose);
}

/**
 * For text the rules cannot read, the kinds of work its own words name (Spanish, Portuguese, German, French,
 * Italian, Chinese, Japanese): a hint, weaker than the model reader, better than defaulting to "feature".
 */
const FOREIGN_CATEGORY_WORDS: [category: Category, pattern: RegExp][] = [
  [
    'bug-fixing',
    /\b(?:corregir|arreglar|error(?:es)?|fallo|falla|corrigir|corrija[mn]?|consert(?:ar|e|em)|erros?|falhas?|fehler|beheben|absturz|stürzt|corrige[rz]?|erreurs?|bugs?|bogues?|plantage|plante|répare[rz]?|correggere|errore|crash)\b|崩溃|修复|错误|バグ|修正|エラー/iu,
  ],
  ['testing', /\b(?:pruebas?|testes?|cobertura|tests?|testen|prueba|copertura)\b|测试|テスト/iu],
  [
    'refactoring',
    /\b(?:refactori[zs]ar|refatorar|refatore[mn]?|refatoração|actualizar|atualizar|atualize|migrar|reemplazar|substituir|substitua|umstellen|aufräumen|refaktor\w*|remanie[rz]?|refactori[sz]e[rz]?|migre[rz]?)\b|重构|リファクタ/iu,
  ],
  ['code-review', /\b(?:revisar|revisión|revisão|revise|überprüfen|prüfen|relire|relisez|revisione)\b|审查|レビュー/iu],
  ['web-scraping', /\b(?:extraer datos|raspar|rastrear|scrapen|extraire)\b|爬虫|抓取|スクレイピング/iu],
  ['data-analysis', /\b(?:analizar|análisis|analisar|analise|análise|analysieren|analyse[rz]?|analizzare)\b|分析/iu],
  [
    'feature',
    /\b(?:añadir|agregar|crear|implementar|adicionar|adicione|criar|crie|implemente|hinzufügen|erstellen|bauen|ajoute[rz]?|crée[rz]?|aggiungere|creare)\b|添加|新增|実装|追加/iu,
  ],
];

/** A question about the code opening the text: "warum …", "¿dónde …?", "pourquoi …", "onde …", "为什么…", "なぜ…". */
const FOREIGN_QUESTION =
  /^[\s¿¡"'«„“]*(?:warum|wieso|weshalb|wo(?:\s|durch|her|mit)|wie\s|was\s|welche[rsnm]?\s|wer\s|gibt es\b|por\s?qu[eé]|d[oó]nde|c[oó]mo|qu[eé]\s|cu[aá]l(?:es)?\s|qui[eé]n|pourquoi|o[uù]\s|comment\s|qu['’]est-ce|quel(?:le)?s?\s|est-ce que|onde|como\s|o que|qual|quem|perch[eé]|dove|come\s|cosa|quale)|^[^\n]{0,20}?(?:为什么|为何|哪里|在哪|哪个|怎么|如何|是什么|什么|なぜ|どうして|どこ|どうやって|どのように|何が|何を|どの)/iu;
/** A change asked for politely, which a question mark does not make a question: "kannst du … beheben?", "¿puedes añadir …?". */
const FOREIGN_POLITE_REQUEST =
  /\b(?:kannst du|könntest du|können sie|könnten sie|bitte|puedes|podrías|podria|puede usted|por favor|pouvez-vous|peux-tu|pourrais-tu|pourriez-vous|s['’]il te plaît|s['’]il vous plaît|você pode|pode|poderia|puoi|potresti|per favore)\b|请|能不能|你能|帮我|してください|してくれ|お願い|できますか/iu;

/**
 * The kind of work named first (the ask comes before the details); "add"/"create" only when nothing more specific is
 * named. Text that opens with a question word and asks for nothing to be done is a question about the code.
 */
export function foreignCategoryHint(prose: string): Category | undefined {
  if (FOREIGN_QUESTION.test(prose.trim()) && !FOREIGN_POLITE_REQUEST.test(prose)) return 'question';
  let first: { category: Category; at: number } | undefined;
  for (const [category, pattern] of FOREIGN_CATEGORY_WORDS) {
    if (category === 'feature' && first) break;
    const at = prose.search(pattern);
    if (at >= 0 && (!first || at < first.at)) first = { category, at };
  }
  return first?.category;
}
