import type { Category } from '../categories.js';
import type { RecognisedInstruction } from './instruction-types.js';
import { ABOUT_DATA, asksAQuestion } from './question-cues.js';
import { MODEL_BUILDING } from './scope-cues.js';
import { ASK_PREFIX } from './sentences.js';

type Signal = readonly [pattern: RegExp, weight: number];

interface CategorySignals {
  /** Matched against the whole prose. */
  anywhere: Signal[];
  /** Matched again against the main ask, so the verb of the request outweighs side remarks ("…and add a test"). */
  head: Signal[];
}

const POLITE = `^${ASK_PREFIX}`;

/** The verb of the request: at the start ("please fix …") or asked for mid-sentence ("…, can you fix it?"). */
function requestVerb(verbs: string): RegExp {
  return new RegExp(`(?:${POLITE}|\\b(?:can|could|would) (?:you|someone|somebody|we)\\s+|\\b(?:please|pls|plz)\\s+)(?:${verbs})\\b`);
}

/** The kinds of work the wording is scored for; a question is recognised by its shape (question-cues.ts). */
type ScoredCategory = Exclude<Category, 'question'>;

const SIGNALS: Record<ScoredCategory, CategorySignals> = {
  'incident-triage': {
    anywhere: [
      [/^\W*triage\b/, 12],
      [/\btriage\b/, 4],
      [/\b(?:incident|outage|pager(?:duty)?|paged|on[- ]call|sev[- ]?[0-3]|war room|post-?mortem|rca|root cause)\b/, 5],
      [/\b(?:on fire|fire|alerts?|firing|alarm)\b/, 3],
      [/\b(?:5xx|4xx|[45]\d\ds)\b/, 2],
      [/\b(?:error rate|latency|p9\d|spik(?:e|es|ed|ing)|jumped|degraded|(?:is|are|went) down|down since|unavailable|unreachable)\b/, 3],
      [/\b(?:site|prod|production|app|api|server|servers|service|everything|website|db|database|we)(?:'re| is| was| went| are)? down\b/, 4],
      [/\bin prod(?:uction)?\b/, 1],
      [
        /\b(?:for everyone|for all (?:users|customers)|all users|every user|health ?checks? (?:are )?failing|pods? (?:are )?(?:crash\w*|restarting)|crashloop\w*)\b/,
        3,
      ],
      [/^\W*(?:p[0-2]|sev[- ]?[0-3])\b/, 4],
      [
        /\b(?:cpu|memory|disk|load|connections?|replica lag|connection pool)\b[^.]{0,30}(?:\d+\s*%|\bat \d+|maxed|exhausted|through the roof|pegged)|\b\d+\s*% (?:cpu|memory|disk)\b/,
        4,
      ],
      [/\b(?:the )?(?:app|site|api|service|website|db|database|primary)\b (?:is|keeps|are) (?:timing out|unresponsive|down|crashing|restarting|flapping)\b/, 3],
      [/\b(?:likely cause|what(?:'s| is) (?:going on|causing|happening)|what changed)\b/, 2],
      [/\bwhy (?:is|are|did)\b/, 1],
      [/\b(?:we |just )?(?:shipped|deployed|released|rolled out)\b/, 1],
      [/\b(?:right now|asap|urgent|customers? (?:are )?(?:affected|impacted))\b/, 1],
      [/\b\d{1,2}:\d{2}\s*(?:utc|gmt|cet|cest|pst|pdt|est|edt|am|pm)\b/, 2],
    ],
    head: [[/\b(?:triage|investigate)\b/, 3]],
  },
  'bug-fixing': {
    anywhere: [
      [/\b(?:bugs?|buggy|bugfix)\b/, 3],
      [/\b(?:a|an|the|some) (?:problem|issue|glitch)s? (?:with|in)\b/, 3],
      [/\b(?:acting (?:weird|up|strange|funny)|misbehav\w*|glitch(?:es|y|ing)?)\b/, 3],
      [/\b(?:broken|crash(?:es|ed|ing)?|exception|regression|stack ?trace|traceback|segfault)\b/, 3],
      [/\bsomething(?:'s| is) (?:wrong|off|broken)\b|\b(?:doesn'?t|does not|isn'?t|is not|not|stopped) work(?:ing|s)?\b/, 3],
      // What happens only somewhere: "does nothing on safari, works on chrome".
      [
        /\b(?:does|do|did) nothing\b|\bnothing happens\b|\bworks (?:fine |ok |well )?(?:on|in|with) [\w.-]+(?: \d[\w.]*)?\s*(?:,|but|though|just not)|\bonly (?:on|in) (?:safari|firefox|chrome|edge|ios|android|windows|mac|linux|prod|production|staging)\b/,
        3,
      ],
      [
        /\b(?:wrong|incorrect(?:ly)?|fails?|failing|throws?(?! away)|returns? (?:true|false|null|undefined|nan|\d+|an? (?:empty|wrong)|the wrong|wrong)|instead of|off[- ]by[- ]one|errors?)\b/,
        2,
      ],
      [/\bfix(?:es|ed|ing)?\b/, 3],
      [/\b(?:it|this|that|they|which) should\b|\bshould (?:show|display|return|be|equal|say|read|only|not|never|always|stay|keep)\b(?! able)/, 2],
      [
        /\b(?:shows?|displays?|returns?|gives?|prints?|renders?)\b[^.]{0,60}\bbut\b|\breturns? (?:duplicates?|nothing|stale|empty|incorrect|old|the old|zero|0)\b/,
        2,
      ],
      [
        /\b(?:since|after) (?:upgrading|updating|the upgrade|we upgraded|bumping|migrating|the migration)\b|\b(?:started|began|broke|regressed) (?:after|since|with|in)\b/,
        2,
      ],
      [/\b(?:slow|sluggish|laggy|takes forever|too long)\b/, 2],
      [/\b(?:users?|customers?|people|clients?) (?:say|says|report|reported|reporting|complain|see|are seeing|get|are getting|keep getting)\b/, 3],
      [/\b(?:build|ci|pipeline|deploy) (?:is |are )?(?:failing|broken|red|fails)\b/, 3],
      [/\b(?:points?|links?|redirects?|goes|sends?) (?:\w+ )?to (?:localhost|the wrong|a 404|nowhere|staging)\b/, 3],
      [/\b(?:memory leak|leak(?:s|ing)?|oom|hangs?|freez(?:es|ing)|deadlocks?|race condition|times? out|timing out)\b/, 3],
      [
        /\b(?:stopped (?!working)\w+ing|no longer \w+|(?:doesn'?t|does not|didn'?t|won'?t|can'?t|cannot) (?!work\b|be\b|have\b)\w+|isn'?t (?!working\b)\w+ing)\b/,
        2,
      ],
    ],
    head: [[requestVerb('fix+|debug|resolve|repair|patch|hotfix'), 5]],
  },
  'code-review': {
    anywhere: [
      [/\breview(?:ing|s)?\b/, 4],
      [/\b(?:audit|look over|sanity[- ]check|second pair of eyes|lgtm|feedback on)\b/, 3],
      [
        /\bcheck (?:if|whether|that) (?:my|the|this|our) (?:code|changes|pr|implementation|approach|solution)\b|\b(?:is|does|are) (?:my|this|the) (?:code|approach|implementation|changes|solution) (?:ok|okay|good|correct|right|fine|looks?|sound)\b|\bwhat do you think (?:of|about)\b|\b(?:thoughts|opinions?|feedback) on\b/,
        4,
      ],
      [/\b(?:check|look at|go over|read through|take a look at) (?:my |the |this |our )?(?:pr|pull request|diff|changes|branch|commit)\b/, 4],
      // Review requests without the word: the diff in hand, what a change could break.
      [/\b(?:the|this|my|our) (?:diff|patch|changeset)\b/, 6],
      [/\bwhat (?:could|might|would) (?:this|these changes?|it) break\b|\bregressions? (?:introduced|caused) by (?:this|the) (?:change|pr|diff)\b/, 3],
    ],
    head: [
      [requestVerb('review|audit|look over|look through'), 6],
      // "review" leading the ask, not as part of its object ("add a section to the PR review prompt").
      [/^(?:\W*\w+\W+){0,3}review\b/, 3],
    ],
  },
  testing: {
    anywhere: [
      [/\b(?:unit|integration|e2e|end-to-end|snapshot|property[- ]based|contract|load|smoke) tests?\b/, 1],
      [/\b(?:test )?coverage\b/, 2],
      [/\b(?:flaky|flakey|intermittently failing) tests?\b|\btests? (?:is|are) flaky\b/, 4],
      [/\b(?:tests?|specs?|testing)\b/, 1],
      [/\btests?\b[^.]{0,50}\b(?:fail|fails|failing|break|breaks|broken|flak\w*|time out|times out)\b|\b(?:failing|broken|red) (?:tests?|specs?)\b/, 4],
    ],
    head: [
      [/\b(?:add|write|create|need|more|missing|improve|increase|some)\b[^.]{0,20}\b(?:tests?|specs?|test cases|coverage)\b/, 8],
      [/\bcover\b[^.]*\bwith tests\b|\btests? for\b|\b(?:unit|integration|e2e) tests?\b|\btest coverage\b|\bcoverage\b/, 6],
      [/\bflak(?:y|ey|iness)\b/, 4],
      [new RegExp(`${POLITE}test\\b`), 4],
    ],
  },
  'data-analysis': {
    anywhere: [
      [/\b(?:analy[sz]e|analy[sz]ing|analysis|analytics|insights?)\b/, 4],
      [
        /\b(?:statistics|stats|metrics|kpis?|revenue|average|median|mean|distribution|trends?|cohorts?|funnel|retention|churn|conversion|correlat\w*|aggregate\w*|breakdown|percentiles?|outliers?|forecast\w*|segment\w*)\b/,
        3,
      ],
      [
        /\b(?:per [a-z]+|by (?:day|week|month|hour|country|region|user|customer|endpoint|plan|team)|daily|weekly|monthly|top \d+|how many|which (?:users|customers|products|countries|plans)|sorted by|grouped by|group by)\b/,
        2,
      ],
      [
        /\b(?:chart|plot|histogram|visuali[sz]\w*|dashboard|notebook|pandas|dataframe|jupyter|dataset|data ?set|the data|our data|spreadsheet|patterns|anomal\w+)\b/,
        2,
      ],
      [/\b(?:the numbers|some numbers|numbers (?:on|for|say)|crunch|dig into|(?:our|the) [\w-]+ data)\b/, 3],
      [MODEL_BUILDING, 6],
      [/\b(?:which|what) (?:\d+ )?[\w-]+ (?:had|have|were|was|are|did|has|got)\b|\b(?:highest|lowest|most|least|biggest|slowest|fastest)\b/, 3],
    ],
    head: [
      [
        /\b(?:analy[sz]e|analysis|insights?|compute\w*|calculate\w*|summari[sz]e|summary of|plot|chart|visuali[sz]e|find out|figure out|break down|breakdown|report on|compare|patterns|trends|anomalies|numbers on|which|how many)\b|^\W*what(?:'s| is| are| was| were) the (?:\w+ ){0,2}(?:p\d\d|average|median|mean|total|number|count|share|percentage|distribution|sum)\b/,
        4,
      ],
    ],
  },
  'web-scraping': {
    anywhere: [
      [/\bscrap(?:e|es|er|ers|ing|ed)\b|\bscrapp(?:ed|ing|er)\b|\bcrawl(?:s|er|ers|ing|ed)?\b|\bspiders?\b|\bharvest\b/, 8],
      [/scrap(?:e|er|ing)|crawl/, 2],
      [/\b(?:puppeteer|playwright|cheerio|beautiful ?soup|bs4|selenium|scrapy|jsdom)\b/, 4],
      [/\brobots\.txt\b|\buser[- ]agent\b/, 3],
      [
        /\b(?:collect|extract|pull|grab|fetch|download|gather|get)(?:s|es|ed|ing)?\b(?! started)[^.]{0,120}(?:https?:\/\/|\b(?:from|off) (?:the |their |each |every |competitor |competitors'? |other )?(?:websites?|sites?|pages?|web|listings?|boards?)\b|\bfrom \S+\.(?:com|org|net|io)\b)/,
        6,
      ],
      [/\bpaginat\w*|\?page=|\bnext page\b/, 1],
      [
        /\b(?:competitors?'?)\b[^.]{0,30}\b(?:prices?|pricing|listings|products|catalog\w*)\b|\b(?:monitor|track|watch)\b[^.]{0,30}\b(?:prices?|pricing|listings|websites?|pages?)\b/,
        4,
      ],
    ],
    head: [],
  },
  refactoring: {
    anywhere: [
      [/\brefactor\w*\b/, 6],
      [/\b(?:re-?architect\w*|redesign\w*)\b/, 4],
      [/\b(?:clean ?up|cleanup|tidy|tech(?:nical)? debt|dead code|deduplicate|dedupe|dry up|simplify|restructure|reorgani[sz]e|decouple|moderni[sz]e)\b/, 4],
      [/\b(?:no (?:behaviou?r|logic|functional) changes?|without changing (?:the |any )?(?:behaviou?r|logic)|same behaviou?r|behaviou?r[- ]preserving)\b/, 4],
      [/\b(?:improve (?:the )?(?:performance|readability|structure|code quality|maintainability)|optimi[sz]e|speed up|make \w+ faster)\b/, 4],
      [/\b(?:split|extract|rename|inline|move|consolidate|merge)\b[^.]{0,60}\b(?:into|to|out of|from)\b/, 3],
      [/\b(?:replace|migrate|convert|switch|port)\b[^.]{0,60}\b(?:with|to|from)\b/, 2],
      [/\bdeprecated\b/, 3],
      [/\b(?:get rid of|remove|drop|replace|ditch)\b[^.]{0,30}\b(?:dependency|dependencies|library|package|lib)\b/, 4],
      [/\b(?:code|coding) style\b|\bsame code\b/, 4],
      [
        /\b(?:cleaner|more readable|readability|maintainab\w+|less messy|a mess|messy|spaghetti|hard to (?:follow|read|understand|maintain)|unreadable|confusing|convoluted)\b/,
        4,
      ],
    ],
    head: [
      [
        requestVerb(
          'refactor|split|extract|rename|clean|tidy|simplify|replace|upgrade|bump|reorgani[sz]e|restructure|move|convert|migrate|deduplicate|dedupe|inline|decouple|modernize|modernise|remove dead|dry up|re-?architect|redesign|optimi[sz]e|speed up|get rid of|drop',
        ),
        5,
      ],
      [/\bmake (?:it|this|the code|this code|things|the \w+) (?:cleaner|more readable|simpler|nicer|tidier|more maintainable)\b/, 5],
    ],
  },
  feature: {
    anywhere: [
      [
        /\b(?:new (?:endpoint|feature|page|flag|option|command|field|column|button|screen|api|setting)|feature|support for|allow (?:users|admins|people|customers) to|let (?:users|admins) |make it possible)\b/,
        3,
      ],
      [/\b(?:endpoint|flag|option|button|command|webhook|integration|toggle|setting)\b/, 1],
      [/\b(?:rewrite|rebuild|from scratch|build a new one|start over)\b/, 2],
    ],
    head: [
      [
        requestVerb(
          'add|implement|build|create|introduce|support|enable|allow|expose|make|write|set up|setup|integrate|log|track|record|emit|show|display|hide|persist|paginate|validate|notify|post|send|email|alert|warn|retry|rewrite|rebuild|port|reimplement|recreate|develop|ship|design',
        ),
        5,
      ],
      [/\b(?:we need|we want|it would be (?:nice|great)|can we (?:get|have)|i(?:'d| would) like)\b/, 2],
      [/\b(?:we need|we want|can we (?:get|have)|i(?:'d| would) like|it would be (?:nice|great) to have) (?:a|an|some|the ability|to be able)\b/, 5],
    ],
  },
};

/** Ties go to the earlier category: the more specific kinds of work come first. */
const PRIORITY: ScoredCategory[] = ['incident-triage', 'code-review', 'web-scraping', 'testing', 'data-analysis', 'bug-fixing', 'refactoring', 'feature'];
const TEST_PATH = /(?:^|\/)(?:tests?|spec|specs|__tests__|e2e)\/|\.(?:test|spec)\.\w+(?::\d+)*$/i;
const DATA_FILE = /\.(?:csv|tsv|jsonl|ndjson|parquet|xlsx|xls|ipynb)(?::\d+)?$/i;

/**
 * Kinds of work that are often asked as questions themselves, with the score from which the wording is clearly that
 * work rather than a question about the code: an outage ("why is prod down since 14:05?"), a review ("what do you
 * think of PR #4?"), a failure ("why is the build failing?", "why does login throw a TypeError?"), numbers from data
 * ("what do the numbers say?"; only when the question is about data, since "which"/"how many" are any question's words).
 */
const ASKED_AS_QUESTIONS: ReadonlyArray<readonly [ScoredCategory, number]> = [
  ['incident-triage', 5],
  ['code-review', 4],
  ['bug-fixing', 5],
  ['web-scraping', 5],
  ['data-analysis', 3],
];

function isQuestion(recognised: RecognisedInstruction, scores: Map<ScoredCategory, number>): boolean {
  if (!asksAQuestion(recognised.cues)) return false;
  const aboutData = ABOUT_DATA.test(recognised.cues.lower) || recognised.cues.references.files.some((file) => DATA_FILE.test(file));
  return ASKED_AS_QUESTIONS.every(([category, score]) => (category === 'data-analysis' && !aboutData) || (scores.get(category) ?? 0) < score);
}

export function classifyCategory(recognised: RecognisedInstruction): Category {
  const scores = categoryScores(recognised);
  if (isQuestion(recognised, scores)) return 'question';
  let best: ScoredCategory = 'feature';
  let bestScore = 0;
  for (const category of PRIORITY) {
    const score = scores.get(category) ?? 0;
    if (score > bestScore) {
      best = category;
      bestScore = score;
    }
  }
  return best;
}

/**
 * "When a build fails, post its log to #ci": a condition leading an order is when the new behaviour happens, not a
 * problem to fix. The order after it is the ask.
 */
const TRIGGER_CLAUSE = /^\W*(?:when(?:ever)?|if|once|each time|every time|as soon as)\b[^,.;!?\n]{1,100},\s*(?=(?:please\s+)?[a-z]+\b)/;
const ORDER =
  /^(?:please\s+)?(?:add|post|send|show|display|notify|log|record|emit|retry|create|open|email|ping|alert|message|warn|redirect|disable|enable|skip|mark|save|write|hide|stop|keep|run|trigger|tag|label|assign|comment|use|fall back|fallback|return|respond|reply|set|move|archive|delete|remove|queue|schedule|block|allow|ask|prompt)\b/;

/** "The chart shows UTC times, show them in the user's timezone": how things are now, then the order. */
const STATE_CLAUSE = /^\W*(?:the|our|my|this|that|these|those|it|its|they|users?|customers?|people)\b[^,.;!?\n]{1,100},\s*(?=(?:please\s+)?[a-z]+\b)/;

function withoutTrigger(text: string): string {
  const lead = TRIGGER_CLAUSE.exec(text) ?? STATE_CLAUSE.exec(text);
  if (!lead) return text;
  const rest = text.slice(lead[0].length);
  return ORDER.test(rest) ? rest : text;
}

/** How strongly the wording points at each category; nothing at all reads as a feature request. */
export function categoryScores({ elements, cues }: RecognisedInstruction): Map<ScoredCategory, number> {
  const scores = new Map<ScoredCategory, number>();
  const head = withoutTrigger(cues.head);
  const lower = head === cues.head ? cues.lower : cues.lower.replace(cues.head, head);
  for (const category of PRIORITY) {
    const { anywhere, head: headSignals } = SIGNALS[category];
    scores.set(category, sumMatches(anywhere, lower) + sumMatches(headSignals, head));
  }
  const add = (category: ScoredCategory, points: number) => scores.set(category, (scores.get(category) ?? 0) + points);
  if (cues.errorOutput) add('bug-fixing', 3);
  if (cues.symptom) add('bug-fixing', 1);
  if (cues.sections.observed || cues.sections.expected || cues.sections.actual) add('bug-fixing', 3);
  if (cues.sections.focusAreas || (elements.severityLabels && elements.severityLabels.length > 0)) add('code-review', 2);
  if (cues.references.prNumbers.length > 0) add('code-review', 1);
  if (elements.rateLimit) add('web-scraping', 2);
  if (cues.references.files.some((file) => DATA_FILE.test(file))) add('data-analysis', 2);
  if ([...cues.references.files, ...cues.references.directories].some((path) => TEST_PATH.test(path))) add('testing', 2);
  return scores;
}

function sumMatches(signals: Signal[], text: string): number {
  let total = 0;
  for (const [pattern, weight] of signals) if (pattern.test(text)) total += weight;
  return total;
}
