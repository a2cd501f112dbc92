import picomatch from 'picomatch';

/** The changed files that touch protected paths (CI workflows by default): such a PR is a draft an approver must clear. */
export function protectedChanges(files: string[], globs: string[]): string[] {
  if (globs.length === 0) return [];
  const isProtected = picomatch(globs, { dot: true });
  return files.filter((file) => isProtected(file.replace(/^\.\//, '')));
}
