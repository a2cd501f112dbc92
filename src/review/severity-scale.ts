/** Critical/Major/Minor unless the instruction asks for another set such as Critical/High/Medium/Low. */
export const DEFAULT_SEVERITY_LABELS = ['Critical', 'Major', 'Minor'] as const;

/**
 * The severity labels a review uses, most severe first: the instruction's own set (capitalised,
 * duplicates dropped) when it names at least two, else the default.
 */
export function severityScale(requested: unknown): string[] {
  const labels = Array.isArray(requested)
    ? requested
        .filter((label): label is string => typeof label === 'string')
        .map(capitalise)
        .filter(Boolean)
    : [];
  const unique = [...new Map(labels.map((label) => [label.toLowerCase(), label])).values()];
  return unique.length >= 2 ? unique : [...DEFAULT_SEVERITY_LABELS];
}

function capitalise(label: string): string {
  const trimmed = label.trim();
  if (/^(?:p|sev)[- ]?\d$/i.test(trimmed)) return trimmed.toUpperCase();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1).toLowerCase();
}
