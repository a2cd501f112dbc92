const ERROR_HANDLING =
  /\b(?:retr(?:y|ies|ied|ying)|backoff|back off|time ?outs?|timed out|on (?:failure|error)s?|handle (?:errors|failures|timeouts|[45]\d\d)|error handling|skip\w*|[45]\d\d(?:s)?|gracefully|give up|captcha|[45]xx|(?:on|for) [45]\d\d)\b/i;
const LOGGING = /\b(?:log|logs|logged|logging)\b|\b(?:record|report|collect|track) (?:the )?(?:failures|errors|failed)\b/i;

/** Whether an instruction says what to do when a request fails (retries, timeouts, skipping). */
export function mentionsErrorHandling(text: string): boolean {
  return ERROR_HANDLING.test(text);
}

/** Whether an instruction says what to log. */
export function mentionsLogging(text: string): boolean {
  return LOGGING.test(text);
}
