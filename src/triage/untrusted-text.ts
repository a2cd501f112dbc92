/**
 * Text from outside (incident titles, alert bodies, log lines, notes, commit messages, diffs) goes to
 * the model inside <untrusted> tags; it must not be able to close that tag itself.
 */
export function neutralizeTags(text: string): string {
  return text.replace(/<(\/?)\s*untrusted/gi, '‹$1untrusted');
}

/** Cuts text to `max` characters, saying how much was left out. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters left out)` : text;
}
