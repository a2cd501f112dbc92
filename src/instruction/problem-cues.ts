const ERROR_NAME =
  /\b[A-Z][A-Za-z]*(?:Error|Exception)\b(?::[^\n]*?(?=\.\s|\n|$))?|\bTraceback \(most recent call last\)|\bpanic: [^\n]+|\bSIGSEGV\b|\bsegmentation fault\b|\bE(?:CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|ADDRINUSE|ACCES)\b[^\n.]*/;
const ERROR_OUTPUT =
  /\b\w*(?:Error|Exception)\b|Traceback|^\s*at\s+\S+|panic:|\bFATAL\b|\bERROR\b|\bfailed\b|exit (?:code|status) [1-9]|segmentation fault|\bE[A-Z]{4,}\b|^\s*File "/m;

const SYMPTOM = new RegExp(
  [
    String.raw`\b(?:fail(?:s|ed)? (?:silently|quietly|intermittently|sometimes|randomly)|silently (?:fails?|failed|drops?|dropped|ignores?|ignored|swallow\w*)|exit(?:s|ed)? with (?:code|status)|exit (?:code|status) [1-9]\d*|returns?|returning|returned|throws?|throwing|threw|crash(?:es|ed|ing)?|hangs?|hanging|freez(?:es|ing)|froze)\b`,
    String.raw`\b(?:(?:does|do|did) nothing|nothing happens)\b`,
    String.raw`\b(?:drops?|dropping|dropped|duplicat(?:es|ed|ing)|rejects?|rejected|ignores?|ignored|loses?|losing|lost|skips?|skipped|leaks?|leaking)\b`,
    String.raw`\b(?:shows?|showing|displays?|displaying|renders?|rendering|prints?|printing|logs? (?:an? )?(?:error|warning))\b`,
    String.raw`\b(?:times? out|timing out|timed out|timeouts?|spik(?:e|es|ed|ing)|jumped|doubl(?:es|ed)|overflows?|truncat(?:es|ed)|corrupt(?:s|ed)?)\b`,
    String.raw`\b(?:(?:points?|links?|redirects?|goes|go|sends?) (?:\w+ )?to (?:localhost|the wrong|a 404|404|nowhere|staging|http:)|flaky|flakey|intermittent\w*|randomly|intermittently|sporadically|never \w+|always \w+|twice|duplicated?|double[- ](?:charged|sent|counted|booked)|typos?|misspel\w*|spelling|stopped (?!working)\w+ing|stuck|infinite loop|deadlocks?|race condition|data race|thread[- ]safety (?:issue|problem|bug)|concurrent (?:access|modification)|off[- ]by[- ]one|instead of|rather than|no longer|unavailable|unreachable|(?:is|are|went|was) down|outage|memory leak|oom)\b`,
    String.raw`\b(?:latency|error rate|p9\d|cpu|memory|disk|queue depth)\b[^.]{0,40}(?:\d|spik|jump|high|increas|went|doubl|through the roof|growing|maxed)`,
    String.raw`\b(?:fails? (?:to|with|when|for|after|if)|fails? on (?!main|master|develop|ci\b)|failing (?:with|when|for|since|after)|failing on (?!main|master|develop|ci\b)|keeps? (?:failing|crashing|timing out|breaking|restarting)|failed (?:to|with)|breaks? (?:when|on|if|after)|errors? (?:when|on|if|after))\b`,
    String.raw`\b(?:should(?:n't| not)?|expected to|supposed to|ought to)\s+(?!work|be working|be fixed|be fine|be ok)\w+|\bexpected\b`,
    String.raw`\b(?:undefined|null|nan|empty|blank|missing|wrong (?:total|value|amount|date|time|timezone|number|count|order|result|price|currency|data|user|page|status))\b`,
    String.raw`\b[45]\d\d(?:s)?\b|\b[45]xx\b|\b\d+(?:\.\d+)?\s*%|\b\d+\s*(?:ms|seconds)\b`,
  ].join('|'),
  'i',
);
const NEGATED_VERB =
  /\b(?:does(?:n't| not)|do(?:n't| not)|did(?:n't| not)|won't|can(?:'t|not)|is(?:n't| not)|are(?:n't| not))\s+(?:(?:really|always|even|actually|seem to|ever|quite)\s+)?(\w+)/gi;
const VAGUE_NEGATED =
  /^(?:work|works|working|function|functioning|seem|seems|look|looks|right|good|ok|okay|correct|correctly|properly|be|sure|know|have|it|the|a)$/i;

/** An error message or exception named in prose: "TypeError: x is undefined". */
export function findInlineError(text: string): string | undefined {
  return ERROR_NAME.exec(text)?.[0]
    .replace(/[`'"]+$/, '')
    .trim();
}

/** Whether a code block looks like error output (stack trace, log line, exception). */
export function looksLikeErrorOutput(code: string): boolean {
  return ERROR_OUTPUT.test(code);
}

/** Whether prose describes what concretely goes wrong, beyond "it's broken" or "something is wrong". */
export function describesSymptom(text: string): boolean {
  if (SYMPTOM.test(text) || ERROR_NAME.test(text)) return true;
  for (const match of text.matchAll(NEGATED_VERB)) {
    // "Do not touch billing" is a constraint, not a symptom: an imperative at the start of a sentence.
    if (/^do(?:n't| not)/i.test(match[0]) && /(?:^|[.!?\n]\s*|\bplease\s+)$/i.test(text.slice(0, match.index))) continue;
    if (!VAGUE_NEGATED.test(match[1] ?? '')) return true;
  }
  return false;
}
