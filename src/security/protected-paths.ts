/** Path globs: `**` any depth, `*` within a segment, `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*' && glob[i + 1] === '*') {
      pattern += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') pattern += '[^/]*';
    else if (ch === '?') pattern += '[^/]';
    else pattern += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** The changed files that touch protected paths (CI workflows by default): such a PR is a draft an approver must clear. */
export function protectedChanges(files: string[], globs: string[]): string[] {
  const patterns = globs.map(globToRegExp);
  return files.filter((file) => patterns.some((p) => p.test(file.replace(/^\.\//, ''))));
}
