import type { InstructionCues } from './instruction-types.js';

/** Greetings and lead-ins before the ask: "hey, quick question: why …". */
const LEAD_IN = /^(?:\W*(?:hey|hi|hello|ok|okay|so|also|btw|by the way|quick question|question|q|curious|wondering|sorry)\b[\s,:;!.?-]*)+/;

/** Verbs that ask to be told something, not for a change: "can you explain why …", "could you find where …". */
const TELLING_VERBS =
  /(?:explain|tell|describe|show me|find (?:out )?(?:where|why|how|what|which|who|whether|if|the place)|locate|point me|walk me|help me (?:understand|find|see)|check (?:if|whether)|look up|figure out (?:where|why|how|what|which|whether|if)|clarify|confirm (?:if|whether)|trace|list (?:the )?(?:callers|places|files|usages))\b/;

/**
 * A change asked for in the shape of a question: "can you fix the typo?", "could you add a test for X?", "is it
 * possible to make the timeout configurable?", "why don't you just retry?". The question mark is politeness here.
 */
const CHANGE_ASK = new RegExp(
  String.raw`(?:^|[,;:]\s*|\b(?:and|so|but|then|also)\s+)(?:(?:can|could|would|will|won'?t|may|might)\s+(?:you|u|ya|someone|somebody|we|wrench|i get you to)\s+(?:please\s+|pls\s+|plz\s+|just\s+|quickly\s+|also\s+|maybe\s+|kindly\s+)*(?!${TELLING_VERBS.source})[a-z]` +
    String.raw`|(?:is|would) it (?:be )?possible to\b|any chance (?:you|we|someone) (?:could|can)\b|(?:would|do) you mind\b|why (?:don'?t|do not|not|can'?t) (?:you|we) (?:just )?(?!know\b)[a-z])`,
);

/** "why …", "where is …", "how does …", "what calls …", "which module …". */
const WH_OPENING =
  /^(?:why|where|whereabouts|how(?! about\b)|what(?! about\b| if we\b| (?:i|we) (?:want|need)\b)|which|who|whom|whose|when (?:is|are|does|do|did|was|were|will|would|should|can|could|has|have)\b)\b/;

/** A yes-or-no question about the code: "does the parser handle a BOM?", "is there a limit on uploads?". */
const YES_NO_OPENING =
  /^(?:is|are|does|do|did|was|were|has|have|had|isn'?t|aren'?t|doesn'?t|don'?t|didn'?t|hasn'?t|haven'?t|can|could|should|will|would)\b[^?]*\?/;

/** Asked to be told, in the imperative or as a wish: "explain how …", "walk me through …", "I'd like to know why …". */
const TELL_ME_OPENING = new RegExp(
  String.raw`^(?:(?:can|could|would) (?:you|u) (?:please\s+)?)?(?:${TELLING_VERBS.source}|i(?:'m| am) (?:curious|wondering|trying to understand|confused)\b|i (?:want|need|would like|'d like) to (?:know|understand)\b|i wonder\b|do you know\b|any idea\b)`,
);

/** A later sentence that gives an order: "how did onboarding affect activation? compare signups before and after". */
const LATER_ORDER =
  /(?:[.?!;]\s+|\n\s*)(?:(?:then|and|also|please|pls)\s+)*(?:fix|add|write|create|implement|compare|change|update|remove|make|refactor|rename|move|build|use|replace|delete|plot|chart|compute|calculate|analy[sz]e|review|test|open|send|generate|migrate|bump|upgrade|clean|split|extract|port|rewrite|convert|scrape|triage)\b/;

/**
 * What makes a question one about data to analyse rather than about the code: the data, its numbers, a chart, a cut
 * of it ("by country", "per endpoint", "in September"), logs or tables. "Where do we compute the average?" has none.
 */
export const ABOUT_DATA = new RegExp(
  [
    String.raw`\b(?:the numbers|numbers (?:on|for|say)|data ?sets?|the data|our data|[\w-]+ data\b|data:|spreadsheets?|csv|tsv|excel|exports?|charts?|plots?|graphs?|dashboards?|statistics|stats|kpis?|trends?|cohorts?|funnel|retention|churn|signups?|activation)\b`,
    String.raw`\b(?:by|per) (?:day|week|month|hour|year|quarter|country|region|user|customer|endpoint|route|plan|team|reason|product|category|status)\b|\bbroken down\b|\b(?:sorted|grouped|ordered) by\b|\ba table\b`,
    String.raw`\b(?:in|for|during|since) (?:january|february|march|april|may|june|july|august|september|october|november|december|q[1-4])\b|\blast (?:week|month|quarter|year)\b`,
    String.raw`\.log\b|\blogs?\b|\b(?:postgres|mysql|bigquery|snowflake|warehouse)\b|\btable in\b`,
  ].join('|'),
);

/**
 * Whether the main ask is a question about the code, to be answered rather than changed: opened by a question word
 * ("why does checkout retry the payment three times?"), a yes-or-no question, or a request to be told ("explain how
 * the cache works"). A change phrased as a question ("can you fix the typo in the README?") is not one.
 */
export function asksAQuestion(cues: Pick<InstructionCues, 'head' | 'lower'>): boolean {
  const head = cues.head.trim().replace(LEAD_IN, '').trim();
  if (!head) return false;
  if (CHANGE_ASK.test(head) || LATER_ORDER.test(cues.lower)) return false;
  return WH_OPENING.test(head) || YES_NO_OPENING.test(head) || TELL_ME_OPENING.test(head);
}
