import type { InstructionCues, InstructionElements } from './instruction-types.js';
import { ASK_PREFIX } from './sentences.js';

/** Words that name nothing in particular: pronouns, fillers, and the generic nouns of each kind of work. */
const UNSPECIFIC_WORDS = new Set(
  `a an the this that these those it its itself them they their there here some any more most less few many much all every each
  everything something anything nothing stuff thing things lot lots bit one ones
  i me my mine we us our you your yours he she his her someone somebody anyone
  is are was were be been being am do does did done doing have has had having can could would should will shall may might must
  need needs needed want wants wanted like get gets got give gives make makes made let lets go going take see
  to of in on at by for from with without into onto about as than then so and or but if when while because also just only
  really very quite pretty maybe perhaps please pls plz thanks thank thx hey hi hello team guys folks yall asap urgent quick quickly
  now today tomorrow soon again still already ok okay yes no not dont can't cant won't wont isn't doesn't
  code codebase app application apps project projects repo repository repos system systems software program platform site website
  internet web online data dataset datasets file files folder stuff place places part parts area areas
  better worse good bad nice nicer cleaner clean faster slower quicker prettier great best improve improved improvement improvements
  enhance wrong broken bug bugs buggy issue issues problem problems error errors fire burning weird strange off messed mess
  fix fixes fixed fixing review reviewing look check help work working works scrape scraping crawl collect analyze analyse analysis
  insights insight coverage test tests testing refactor refactoring cleanup tidy add write create build implement update change changes
  handle whole entire complete full total way ways kind sort somehow somewhere cool awesome new old latest pr prs diff commit
  feature features request pull tell show find everywhere anywhere info information
  crash crashes crashing crashed fails failing failed failure slow down outage dead weird happening going wrong off
  prod production staging live site server servers service services logs log summary numbers number report
  interesting patterns pattern someone something somewhere asap help alert alerts alarm terrible awful horrible poor ugly messy sucks meh lame af
  say says said think know mean means seem seems happen happens happened use used using try simplify simplified rework
  restructure optimize optimise polish modernize modernise tidy what why how who where which whom whose crunch
  flaky flakey failing red green random performance perf speed quality e2e unit integration end-to-end
  increase raise boost bump reduce decrease thoughts opinion approach idea solution`.split(/\s+/),
);

/** "the checkout page", "the public API", "the export job": a component named by a qualifying word. */
const NAMED_PLACE =
  /\b(?=([a-z][\w-]*)\s+(page|screen|view|form|modal|dialog|button|endpoint|route|handler|controller|service|module|component|job|worker|cron(?: ?job)?|command|cli|function|method|class|script|query|migration|table|webhook|middleware|api|field|tab|widget|menu|flow|pipeline|hook|template|email|report|export|import|parser|serializer|model|schema|resolver|consumer|queue|lambda|dashboard|library|package|plugin|integration|resource|store|reducer|helper|sdk|client|server|bot|extension|banner|header|footer|sidebar|navbar|container|pod|cluster|database|db|bucket|topic|stream|picker|dropdown|selector|input|calendar|editor|uploader|toolbar|toggle|checkbox|bar|nav|card|panel|graph|chart|popup|wizard|step|tooltip|badge|link|feed|search|result|list|grid|table|notification|message|upload|download|login|signup|checkout|cart)s?\b)/gi;

/** Whether the instruction points at some place in the code: a path, function, directory, route or named component. */
export function pointsAtPlace(elements: InstructionElements, cues: InstructionCues): boolean {
  return (
    (elements.location?.length ?? 0) > 0 ||
    cues.references.routes.length > 0 ||
    cues.references.functions.length > 0 ||
    // A lookahead match at every word, so "the footer component" still finds "footer component" after "the footer".
    [...cues.lower.matchAll(NAMED_PLACE)].some((match) => !UNSPECIFIC_WORDS.has(match[1] ?? '')) ||
    CODE_IDENTIFIER.test(cues.prose)
  );
}

/** A symbol or module named as code: `_sub_column_tree`, "metricGrid", "code-explorer". */
const CODE_IDENTIFIER = /`[A-Za-z_$][\w$.:-]*`|["'](?=[a-z][\w-]*[A-Z_-])[a-z][\w-]{2,}["']/;

/** "refactor everything to use DI", "fix the bug": the verb's object is itself unspecific, whatever follows it. */
const VAGUE_OBJECT = new RegExp(
  String.raw`^${ASK_PREFIX}[a-z]+(?:\s+up)?\s+(?:(?:the|our|my|this|that|all(?: of)?(?: the)?|some|more|whole|entire|new)\s+)*(?:everything|it|this|that|stuff|things|design|feature|code|codebase|code base|app|application|project|repo|repository|system|data|site|website|internet|web|bug|bugs|issue|issues|problem|problems|thing)(?=\s*$|\s*[,.!?;:]|\s+(?:to|for|with|using|so|and|please|pls|asap|now|today)\b)`,
);

/** Whether the instruction says what to work on, rather than "this", "the code" or "the data". */
export function namesTarget(elements: InstructionElements, cues: InstructionCues): boolean {
  const references = cues.references;
  if (cues.sections.target?.trim() || cues.sections.location?.trim() || cues.sections.repository?.trim()) return true;
  if (
    (elements.location?.length ?? 0) > 0 ||
    references.prNumbers.length + references.commits.length + references.repositories.length + references.routes.length > 0 ||
    (elements.references?.urls?.length ?? 0) > 0
  ) {
    return true;
  }
  return !VAGUE_OBJECT.test(cues.head) && cues.specific.length > 0;
}

/** Nouns that name nothing in particular even after "the": "the code", "the data", "the latest changes". */
const UNSPECIFIC_NOUNS = new Set(
  `code codebase app application apps project projects repo repository repos system systems software program platform site website
  internet web data dataset datasets file files folder stuff thing things bug bugs issue issues problem problems error errors
  test tests coverage insights insight numbers number logs log summary changes change latest last new recent current whole entire
  way ways everything something anything performance quality speed pr prs diff commit feature features request fire mess
  one ones same other rest testing analysis review refactoring scraping cleanup tidying approach idea solution implementation design`.split(/\s+/),
);

/** Two-letter words that do name something. */
const SHORT_NAMES = new Set(['ci', 'cd', 'db', 'ui', 'ux', 'qa', 's3', 'os', 'vm', 'ml', 'ai', 'pdf']);

/** The words left once pronouns, fillers and generic nouns are gone. */
export function specificWords(lower: string): string[] {
  const words: string[] = [];
  for (const match of lower.matchAll(/(?:\b(the|our|my|your|their|this|that)\s+)?([a-z][a-z0-9'-]*)/g)) {
    const word = match[2] ?? '';
    if (word.length <= 2 && !SHORT_NAMES.has(word)) continue;
    // After a determiner a word is a noun: "the build" names something, "build something" does not.
    const stoplist = match[1] ? UNSPECIFIC_NOUNS : UNSPECIFIC_WORDS;
    if (!stoplist.has(word) && !stoplist.has(word.replace(/(?:'s|s)$/, ''))) words.push(word);
  }
  return words;
}

const WEB_PLACE = /\b([a-z][\w-]*)\s+(?:front page|page|pages|site|website|board|boards|feed|forum|blog|listings|store|directory|wiki)\b/g;
/** Words before "page" or "site" that name no site: "product pages", "their site". */
const UNNAMED_SITE = new Set(
  `product products item items detail details category listing search result results competitor competitors other various
  random some any all every their our the web next each many few those these this`.split(/\s+/),
);

/** Where a scraper should collect from: URLs, domains, a site named by a proper noun, or a named page ("the hn front page"). */
export function namesSources(elements: InstructionElements, cues: InstructionCues): boolean {
  if ((elements.references?.urls?.length ?? 0) > 0 || cues.references.domains.length > 0 || cues.sections.target?.trim()) return true;
  if (/\b(?:from|on|of|off)\s+(?:the\s+)?[A-Z][\w&-]*/.test(cues.prose)) return true;
  return [...cues.lower.matchAll(WEB_PLACE)].some((match) => !UNNAMED_SITE.has(match[1] ?? ''));
}

const ANALYSIS_WORDS =
  /^(?:statistics|stats|metrics?|kpis?|revenue|average|median|mean|distribution|trends?|cohorts?|funnel|retention|churn|conversion|breakdown|insights?|analytics|numbers?|summary|patterns?|interesting|anomal\w*|outliers?|growth|rate|rates|correlations?|forecasts?|behaviou?r|usage|engagement|activity|users?|customers?|charts?|graphs?|plots?|reports?|tables?|visuali[sz]ations?|dashboards?|make|create|build|models?|predictions?|predict\w*|machine|learning|ml|classifiers?|last|month|months|week|weeks|year|years|quarter|day|days|daily|weekly|monthly|yesterday|recent|q[1-4])$/;

/** Which data an analysis reads: a file, table, export or named dataset, not just the metric it wants. */
export function namesDataSource(elements: InstructionElements, cues: InstructionCues): boolean {
  if (!namesTarget(elements, cues)) return false;
  if ((elements.location?.length ?? 0) > 0 || (elements.references?.urls?.length ?? 0) > 0 || cues.sections.target?.trim()) return true;
  return cues.specific.some((word) => !ANALYSIS_WORDS.test(word));
}
