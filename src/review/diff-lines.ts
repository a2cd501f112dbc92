/**
 * The lines of the new version of a file that a pull request's patch shows (added and context lines):
 * the only lines GitHub accepts a review comment on with `side: RIGHT`.
 */
export function commentableLines(patch: string | undefined): Set<number> {
  const lines = new Set<number>();
  let newLine = 0;
  let inHunk = false;
  for (const text of (patch ?? '').split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      newLine = Number(hunk[1]);
      inHunk = true;
      continue;
    }
    if (!inHunk || text.startsWith('\\') || text.startsWith('-')) continue;
    lines.add(newLine);
    newLine += 1;
  }
  return lines;
}
