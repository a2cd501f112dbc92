const FOCUS_CUE =
  /\b(?:focus(?:ing)?\s+(?:especially\s+|mainly\s+|mostly\s+)?on|look(?:ing)?\s+(?:out\s+)?for|check(?:ing)?\s+(?:for|especially)|pay(?:ing)?\s+(?:special\s+|extra\s+|close\s+)?attention\s+to|especially|esp\.?|in particular|concerned about|worried about|with an eye (?:on|to|for)|care about|mainly|mostly|primarily|flag (?:anything|any|all|everything)(?: that)?)\s+([^.\n?!;]+)/i;

/** Focus areas named without a label: "focus on error handling and SQL injection". */
const NAMED_FOCUS = /\b((?:[\w-]+ )?[\w-]+) focus(?:ed)?\b(?! on)/i;
const REVIEW_FOR = /\b(?:review|audit|check|scan|go over|look over)\b(?:[^.?!\n]|\.(?!\s)){0,60}?\bfor\s+(?!me\b|us\b|you\b|now\b|today\b)([^.,;?!\n]+)/i;

export function findFocusAreas(text: string): string[] | undefined {
  const match = FOCUS_CUE.exec(text) ?? REVIEW_FOR.exec(text) ?? NAMED_FOCUS.exec(text);
  return match?.[1] ? splitFocusAreas(match[1]) : undefined;
}

export function splitFocusAreas(text: string): string[] {
  return text
    .split(/\s*(?:,|;|\n|\band\b|&|\+)\s*/)
    .map((area) => area.replace(/^[-*•\d.)\s]+|^(?:the|also)\s+|[\s.]+$/gi, '').trim())
    .filter((area) => area.length > 1);
}
