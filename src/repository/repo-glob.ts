/** `acme/*` style globs: `*` matches within one path segment, `?` one character; case-insensitive like GitHub. */
export function matchesRepoGlob(fullName: string, glob: string): boolean {
  const pattern = glob
    .split('')
    .map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`, 'i').test(fullName);
}

export function isRepoAllowed(fullName: string, globs: string[]): boolean {
  return globs.some((glob) => matchesRepoGlob(fullName, glob));
}
