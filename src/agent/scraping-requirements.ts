import { findRateLimit } from '../instruction/rate-limit.js';
import { splitSentences } from '../instruction/sentences.js';

/** What to do when a request fails (retries, timeouts, skipping), and what to log. */
const ERROR_HANDLING =
  /\b(?:retr(?:y|ies|ied|ying)|backoff|back off|time ?outs?|timed out|on (?:failure|error)s?|handle (?:errors|failures|timeouts|[45]\d\d)|error handling|skip\w*|[45]\d\d(?:s)?|gracefully|give up|captcha|[45]xx|(?:on|for) [45]\d\d)\b/i;
const LOGGING = /\b(?:log|logs|logged|logging)\b|\b(?:record|report|collect|track) (?:the )?(?:failures|errors|failed)\b/i;

/**
 * A scraper's pacing, retries and logging as hard requirements for the agent: the instruction's own words
 * quoted exactly where it states them (the rate limit above all), safe defaults where it does not; and tests
 * that never reach the live site.
 */
export function scrapingRequirements(instruction: string, elements: Record<string, unknown>): string[] {
  const rateLimit = typeof elements.rateLimit === 'string' && elements.rateLimit.trim() ? elements.rateLimit.trim() : findRateLimit(instruction);
  const statements = requirementStatements(instruction, elements);
  const retries = statements((s) => ERROR_HANDLING.test(s) && s !== rateLimit);
  const logging = statements((s) => LOGGING.test(s));
  return [
    rateLimit
      ? `Rate limit, exactly as the instruction states it: "${rateLimit}". Enforce it in the scraper's code for every request to the site, retries included (one limiter shared by all requests); never exceed it.`
      : 'Rate limit: the instruction names none, so make at most 1 request per second per host, enforced in code for every request, retries included.',
    retries.length
      ? `Retries and error handling, as the instruction asks: ${retries.map(quote).join('; ')}. Implement exactly that; any other HTTP error or malformed page is logged and skipped, never a crash.`
      : 'Retries and error handling: retry timeouts, HTTP 429 and 5xx up to 3 times with exponential backoff (honour Retry-After); do not retry other 4xx; a malformed page is logged and skipped, never a crash.',
    logging.length
      ? `Logging, as the instruction asks: ${logging.map(quote).join('; ')}. Also log every failure with its URL and reason.`
      : 'Logging: log every request (URL, status, attempt, duration) and every failure with its reason, one structured line each.',
    'Honour robots.txt and identify the scraper with a descriptive User-Agent.',
    'Tests run offline: they start a local fixture server on 127.0.0.1 (serving saved HTML) or read saved fixtures, and never reach the live site. Wrench runs the test suite itself without network access, and checks the rate limit and retries there too when the tests cover them.',
  ];
}

/**
 * The instruction's statements about one aspect: its recognised requirements and constraints first, else
 * its sentences.
 */
function requirementStatements(instruction: string, elements: Record<string, unknown>) {
  const listed = ['requirements', 'constraints', 'successCriteria']
    .flatMap((key) => (Array.isArray(elements[key]) ? (elements[key] as unknown[]) : []))
    .filter((item): item is string => typeof item === 'string' && item.trim().length > 0);
  const sentences = splitSentences(instruction);
  return (about: (text: string) => boolean): string[] => {
    const found = listed.filter(about);
    return found.length ? found : sentences.filter(about);
  };
}

function quote(text: string): string {
  return `"${text.trim().replace(/[.;]+$/, '')}"`;
}
