import { MODEL_BUILDING } from './analysis-cues.js';
import type { Category, Complexity } from './instruction-types.js';
import type { RecognisedInstruction } from './recognise-elements.js';
import { LARGE_AREA, UNDERSPECIFIED_AREA, hasBroadScope, hasUnboundedScope, isArchitectural, isOnlySubjectiveGoal } from './scope-cues.js';
import { isWholeRewrite } from './whole-rewrite.js';

/** Work a category usually needs before the first line changes: triage and scraping always involve discovery. */
const BASELINE: Record<Category, number> = {
  testing: 0,
  'data-analysis': 0,
  'web-scraping': 2,
  'code-review': 0,
  'bug-fixing': 1,
  feature: 0,
  refactoring: 0,
  'incident-triage': 2,
};
/** Categories whose changes can span storage, API and interface. */
const BUILDS_ACROSS_LAYERS: ReadonlySet<Category> = new Set(['feature', 'refactoring']);
/** Categories that change code: integrations and debugging add to their work, while reviews and analyses only read about them. */
const CHANGES_CODE: ReadonlySet<Category> = new Set(['testing', 'bug-fixing', 'feature', 'refactoring', 'web-scraping']);
/** Categories where an instruction without a code location means searching the code first. */
const DISCOVERY_WITHOUT_LOCATION: ReadonlySet<Category> = new Set(['testing', 'bug-fixing', 'feature', 'refactoring']);

const INTEGRATION =
  /\b(?:endpoints?|api|database|db|migrations?|schema|redis|queues?|cache|caching|middleware|mocks?|mocking|e-?mails?|mailer|webhooks?|tokens?|oauth|retr(?:y|ies)(?!-after)|backoff|signatures?|hmac|s3|kafka|git|credentials?|secrets?|docker|kubernetes|k8s|aws|gcp|azure|graphql|sessions?|cron|websockets?|third[- ]party|stripe|payments?|slack|notifications?|uploads?)\b/gi;
/** How much several integrations weigh: one is routine, five or more mean several components. */
const INTEGRATION_WEIGHT = [0, 0.5, 1, 1.5, 2.5, 4];
const INVESTIGATION =
  /\b(?:stack ?trace|regression(?! tests?)|regressed|started after|since (?:the )?(?:deploy|release|upgrade|v?\d)|after (?:we )?(?:upgraded|deployed|updated)|intermittent\w*|flaky|race condition|memory leak|leaks?|deadlock|performance|latency|only (?:on|in) (?:safari|firefox|chrome|ios|android|windows|staging)|safari|does nothing|no errors?)\b/i;
const EXISTING_PATTERN =
  /\b(?:(?<!(?:'d|\bwould|\bi|\bwe|\byou|\bthey|\balso|\breally|\bjust) )like|(?:the|an|our) existing|follow(?:ing)? (?:the|how|what|our|existing|this|that|same|§|`)|same (?:as|pattern|style)|similar to|mirror(?:ing)?|as in|the way|existing pattern|reuse|same approach|same way|style (?:of|from|in)|how [`\w/-]+ (?:is|are) (?:handled|done))\b/i;
const COVERAGE_TARGET = /\bcoverage\b[^.]*?(?:>=|≥|at least|above|\d+\s*%)/i;
const SEVERAL_NEW_FILES =
  /\b(?:split\b[^.]*\binto|into (?:smaller|separate|several|multiple) \w+|into (?:[\w-]+ )?(?:folders|modules|files|packages|directories)|one (?:file|module|class) per|per resource)\b/i;
const MANY_PLACES = /\b(?:for each|across|all (?:the )?(?:endpoints|routes|files|modules|services|callers|usages|imports|call sites))\b/i;
const HEAVY_TESTS =
  /\b(?:e2e|end-to-end|integration tests?|load tests?|browser tests?|contract tests?|test suite|test harness|test infrastructure|set ?up (?:a |the )?(?:test|testing|jest|vitest|pytest|mocha|playwright|cypress))\b/i;
const ADVANCED_ANALYSIS =
  /\b(?:find out why|why (?:did|does|is|are)|root cause|dropped|drop-offs?|cohorts?|retention|funnel|significan\w+|regression model|forecast\w*|a\/b|segmentation|clustering|heatmap)\b/i;
const DATA_STORE = /\b(?:bigquery|snowflake|redshift|warehouse|postgres\w*|mysql|sql|database|db|clickhouse|athena)\b/i;
const REUSABLE_TOOL =
  /\b(?:reusable|pipeline|scheduled|automat\w+|cli|notebook|re-?runnable|every (?:day|week|morning|night|hour|\d+ (?:minutes|hours))|(?:runs?|re-?run|updated?|scheduled|refresh(?:ed)?) (?:daily|hourly|nightly)|(?:daily|hourly|nightly) (?:job|cron|runs?|schedule)|dedupe|de-?duplicat\w+|validat\w+)\b/i;
const FAILING_TESTS = /\b(?:fail|fails|failing|failed|broken|red)\b/i;
const VERSION_RANGE = /\bv?\d+\.\d+(?:\.\d+)?\s*(?:\.\.\.?|to|and|->|→)\s*v?\d+\.\d+|\bbetween (?:the )?(?:two |last two )?(?:releases|tags|versions)\b/i;
const SINGLE_PAGE = /\b(?:one page|single page|this page only|just (?:this|that|one) page|one url)\b/i;
const MANY_PAGES = /\b(?:all (?:the )?pages|every page|each page|pages|crawl\w*|paginat\w*|page=|\d+ pages|sitemap)\b/i;
const API_LAYER = 1;
const LAYERS = [
  /\b(?:db|database|tables?|migrations?|schema|columns?|postgres\w*|mysql|redis|prisma|orm)\b/i,
  /\b(?:api|endpoints?|routes?|responses?|graphql|rest|handlers?)\b/i,
  /\b(?:ui|frontend|front-end|pages?|screens?|components?|buttons?|forms?|modals?)\b/i,
  /\b(?:queues?|workers?|jobs?|cron|consumers?|events?)\b/i,
];
const USER_CAPABILITY =
  /\b(?:users?|customers?|admins?|people) (?:can|could|to be able to|should be able to)\b|\b(?:let|allow) (?:users|admins|customers|people)\b/i;
const PATTERN_REFERENCE_BEFORE = /\b(?:like|see|follow|as in|style (?:of|from)|same as)\s+$/i;
const COSMETIC = /\b(?:typos?|misspel\w*|spelling|wording|grammar|copy change)\b/i;
/** Inputs, outputs and docs (data, logs, images, Markdown) are not code to change, except data for an analysis. */
const DATA_OR_OUTPUT = /\.(?:json|jsonl|ndjson|csv|tsv|log|txt|md|mdx|rst|png|svg|pdf|parquet|xlsx|xls)(?::\d+)*$|(?:^|\/)fixtures?\//i;
const PATHS_AND_URLS = /(?<!\S)(?:\S*\/\S*|\S+\.[a-z]{2,5}\b)/gi;

const MEDIUM_FROM = 2;
const COMPLEX_FROM = 5;

/**
 * simple: one file, clear requirements, an existing pattern to follow; medium: several files, some discovery,
 * integration; complex: architectural work across several components, or a scope too large to bound.
 */
export function estimateComplexity(category: Category, recognised: RecognisedInstruction): Complexity {
  const { elements, cues } = recognised;
  if (isWholeRewrite(cues.prose) || isArchitectural(cues.lower)) return 'complex';
  if (category === 'feature' && hasUnboundedScope(elements, cues) && !UNDERSPECIFIED_AREA.test(cues.head)) return 'complex';
  if (category === 'data-analysis' && MODEL_BUILDING.test(cues.lower)) return 'complex';
  // Triage is an investigation by nature; only an incident across several components is more.
  if (category === 'incident-triage') return 'medium';

  const references = cues.references;
  const places = [...references.files, ...references.directories];
  const files = distinctFiles(places, category === 'data-analysis') + (category === 'feature' ? newRoutes(references.routes, places) : 0);
  const words = cues.lower.replace(PATHS_AND_URLS, ' ');
  let score = BASELINE[category];

  score += Math.min(3, Math.max(0, files - 1));
  if (hasWorkingGlob(cues.prose.toLowerCase(), places)) score += 2;
  // A list of test cases makes a test task clearer, not bigger.
  const requirementCount = category === 'testing' ? 0 : (elements.requirements?.length ?? 0);
  if (requirementCount >= 3) score += 1;
  if (requirementCount >= 6) score += 1;
  // "OAuth login with Google and GitHub, account linking by email, and a migration": several deliverables in one breath.
  if (requirementCount === 0 && cues.head.replace(/\([^()]*\)/g, '').split(/,\s+/).length >= 3) score += 1;
  if (CHANGES_CODE.has(category)) {
    const integrations = new Set((words.match(INTEGRATION) ?? []).map((word) => word.replace(/s$/, '')));
    score += INTEGRATION_WEIGHT[Math.min(integrations.size, INTEGRATION_WEIGHT.length - 1)]!;
  }
  const reproducing = category === 'bug-fixing' && (elements.observedProblem?.reproduction?.length ?? 0) > 0;
  const suspects = (elements.observedProblem?.suspectCommits?.length ?? 0) > 0;
  const investigating = CHANGES_CODE.has(category) && (INVESTIGATION.test(cues.lower) || reproducing || suspects);
  if (investigating) score += 2;
  if (COSMETIC.test(words)) score -= 1;
  if (COVERAGE_TARGET.test(cues.lower)) score += 1;
  if (SEVERAL_NEW_FILES.test(cues.lower)) score += 2;
  if (MANY_PLACES.test(cues.lower)) score += 1;
  if (hasBroadScope(cues.head)) score += 2;
  if (isOnlySubjectiveGoal(elements, cues)) score += 1;
  if (DISCOVERY_WITHOUT_LOCATION.has(category) && (elements.location?.length ?? 0) === 0) score += 1;
  if (EXISTING_PATTERN.test(cues.lower)) score -= 1;
  if (BUILDS_ACROSS_LAYERS.has(category)) score += layersTouched(words, references.routes.length > 0);
  score += categorySpecific(category, recognised, words);

  if (score >= COMPLEX_FROM) return 'complex';
  return score >= MEDIUM_FROM ? 'medium' : 'simple';
}

function categorySpecific(category: Category, { elements, cues }: RecognisedInstruction, words: string): number {
  const references = cues.references;
  const urls = elements.references?.urls?.length ?? 0;
  // A folder without a file in it: several files to go through.
  const onlyDirectories = references.directories.length > 0 && references.files.length === 0;
  switch (category) {
    case 'testing':
      return (HEAVY_TESTS.test(words) ? 1 : 0) + (onlyDirectories ? 1 : 0) + (FAILING_TESTS.test(words) ? 1 : 0);
    case 'refactoring':
      return onlyDirectories ? 1 : 0;
    case 'code-review': {
      // A directory, or the range between two releases, instead of one pull request: many changes to read.
      const wide = references.prNumbers.length + references.commits.length === 0 && (references.directories.length > 0 || VERSION_RANGE.test(words));
      return wide ? 2 : 0;
    }
    case 'data-analysis':
      return (ADVANCED_ANALYSIS.test(words) ? 1 : 0) + (DATA_STORE.test(words) ? 1 : 0) + (REUSABLE_TOOL.test(words) ? 1 : 0);
    case 'web-scraping': {
      const onePage = SINGLE_PAGE.test(words) || (urls === 1 && !elements.rateLimit && !MANY_PAGES.test(words));
      return (onePage ? -1 : 0) + (REUSABLE_TOOL.test(words) ? 1 : 0);
    }
    case 'feature': {
      // A capability for users (interface and server), or a large area whose footprint in the code is unknown.
      const fullStack = USER_CAPABILITY.test(words);
      const unlocated = (elements.location?.length ?? 0) === 0;
      const areaWeight = LARGE_AREA.test(cues.head) ? 2 : UNDERSPECIFIED_AREA.test(cues.head) ? 1 : 0;
      return (fullStack ? 1 : 0) + (unlocated ? areaWeight : 0);
    }
    default:
      return 0;
  }
}

/** Work across storage, API and interface at once: one extra step for two layers, two for three or more. */
function layersTouched(words: string, hasRoutes: boolean): number {
  const layers = LAYERS.filter((layer, index) => layer.test(words) || (index === API_LAYER && hasRoutes)).length;
  return layers >= 3 ? 2 : layers === 2 ? 1 : 0;
}

/** `src/legacy/*.js` names many files, unless it is only the pattern to follow ("like test/*.test.ts"). */
function hasWorkingGlob(lower: string, places: string[]): boolean {
  return places.some((place) => {
    if (!place.includes('*')) return false;
    const at = lower.indexOf(place.toLowerCase());
    return at >= 0 && !PATTERN_REFERENCE_BEFORE.test(lower.slice(Math.max(0, at - 20), at));
  });
}

/** Routes of a feature are places to change too, unless a named file already is that route ("/api/invoices" and invoices.ts). */
function newRoutes(routes: string[], places: string[]): number {
  return routes.filter((route) => {
    const segment = route
      .split('/')
      .filter((part) => part && !/^[:{]/.test(part))
      .pop()
      ?.replace(/\..*$/, '')
      .toLowerCase();
    return !segment || !places.some((place) => baseName(place) === segment);
  }).length;
}

function baseName(path: string): string {
  return (
    path
      .replace(/:\d+(?::\d+)?$/, '')
      .replace(/\/$/, '')
      .split('/')
      .pop() ?? ''
  )
    .replace(/\..*$/, '')
    .toLowerCase();
}

/** Files counted once whatever the spelling: `src/x.ts`, `x.ts` and `src/x.ts:42` are one file. Globs are counted apart. */
function distinctFiles(paths: string[], countData: boolean): number {
  const names = new Set<string>();
  for (const path of paths) {
    if (/^line \d+$/.test(path) || path.includes('*') || (!countData && DATA_OR_OUTPUT.test(path))) continue;
    names.add(
      path
        .replace(/:\d+(?::\d+)?$/, '')
        .replace(/\/$/, '')
        .toLowerCase(),
    );
  }
  const full = [...names].filter((name) => name.includes('/'));
  const bare = [...names].filter((name) => !name.includes('/') && !full.some((path) => path.endsWith(`/${name}`)));
  return full.length + bare.length;
}
