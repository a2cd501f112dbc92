const SEVERITY = String.raw`(?:critical|blocker|blocking|major|high|medium|moderate|minor|low|info|informational|nit|nitpick|trivial|cosmetic|p[0-4]|sev[- ]?[0-4])`;
const SEPARATOR = String.raw`\s*(?:\/|,|\||>|→|->|\s-\s|\bor\b|\band\b)\s*`;
const SEVERITY_SET = new RegExp(String.raw`\b${SEVERITY}(?:${SEPARATOR}${SEVERITY}\b)+`, 'gi');
const SEPARATOR_PATTERN = new RegExp(SEPARATOR, 'i');
const SEVERITY_CONTEXT = /\b(?:severit|priorit|label|rank|tag|classif|categori)/i;

/** A set of severity labels such as Critical/Major/Minor or Critical, High, Medium, Low. */
export function findSeverityLabels(text: string): string[] | undefined {
  for (const match of text.matchAll(SEVERITY_SET)) {
    const labels = match[0]
      .split(SEPARATOR_PATTERN)
      .map((label) => label.trim())
      .filter(Boolean);
    const before = text.slice(Math.max(0, (match.index ?? 0) - 40), match.index);
    if (labels.length >= 3 || SEVERITY_CONTEXT.test(before)) return labels;
  }
  return undefined;
}
