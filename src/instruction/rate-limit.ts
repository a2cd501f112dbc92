const NUMBER = String.raw`(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|ten|a single|a|an)`;
const UNIT = String.raw`(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?)`;
const REQUESTS = String.raw`(?:requests?|reqs?|calls?|hits?|fetch(?:es)?|page ?loads?|pages?|queries|query|downloads?)`;
const BOUND = String.raw`(?:(?:at most|max(?:imum)?|no more than|not more than|up to|limit(?:ed)? to|rate[- ]limit(?:ed)? (?:to|at)|throttled? (?:to|at)|under|below|<=|≤|~)\s*)?`;

const RATE_LIMIT_PATTERNS = [
  new RegExp(
    String.raw`${BOUND}\b${NUMBER}\s*${REQUESTS}\s*(?:\/|per|a|an|every|each)\s*(?:${NUMBER}\s*)?${UNIT}\b(?:\s+per\s+(?:api key|key|ip|user|client|host|domain|site|token))?`,
    'i',
  ),
  new RegExp(String.raw`${BOUND}\b\d+(?:\.\d+)?\s*(?:rps|qps|rpm|req\/s|r\/s|req\/sec|requests\/s)\b`, 'i'),
  new RegExp(
    String.raw`\b(?:wait|sleep|pause|delay|throttle|back off)\w*\s+(?:of\s+|for\s+|at least\s+)?${NUMBER}\s*${UNIT}\b(?:\s+(?:between|after each)\s+\w+)?`,
    'i',
  ),
  new RegExp(String.raw`\b${NUMBER}\s*${UNIT}\s+(?:delay|pause|sleep|gap|wait)\s+between\s+\w+`, 'i'),
  new RegExp(String.raw`\b${NUMBER}\s*${REQUESTS}\s+(?:per|a|each)\s+(?:run|check|execution|invocation|poll|job)\b`, 'i'),
  /\b(?:throttle|rate[- ]limit)\w*\s+(?:the\s+|all\s+|our\s+)?(?:requests|calls|crawl(?:er|ing)?|fetch(?:es|ing)?)\b/i,
];

/** The pacing an instruction asks for: "1 request per second", "max 2 req/s", "100 requests/minute per API key". */
export function findRateLimit(text: string): string | undefined {
  for (const pattern of RATE_LIMIT_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return match[0].trim();
  }
  return undefined;
}
