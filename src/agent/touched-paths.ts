import path from 'node:path';

/** Shell words that are never paths (operators, redirections). */
const OPERATORS = new Set(['&&', '||', '|', ';', '&', '>', '>>', '<', '2>', '2>&1', '(', ')', '{', '}']);

/**
 * The workspace paths a command names, relative to `root`: its words that could be paths (not options, URLs or
 * operators), resolved against the directory it starts in, plus that directory. A guess, not a parse: it only
 * decides which directories' instructions the agent is given, never what the command may do.
 */
export function commandPaths(command: string, cwd: string, root: string): string[] {
  const found = new Set<string>();
  const add = (absolute: string) => {
    const relative = path.relative(root, absolute);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return;
    found.add(relative.split(path.sep).join('/'));
  };
  add(cwd);
  for (const raw of command.split(/[\s;&|()]+/)) {
    const word = raw.replace(/^['"]|['"]$/g, '').replace(/^[<>]+/, '');
    if (!word || OPERATORS.has(word) || word.startsWith('-') || word.includes('://') || word.includes('$') || word.length > 400) continue;
    if (!/^[\w./@+-]+$/.test(word) || !/[/.]/.test(word)) continue;
    add(path.resolve(cwd, word));
  }
  return [...found];
}

/** The workspace path an editor call names, relative to `root` (undefined outside it). */
export function editorPath(input: unknown, root: string): string | undefined {
  const given = (input as { path?: unknown } | undefined)?.path;
  if (typeof given !== 'string' || !given.trim()) return undefined;
  const relative = path.relative(root, path.resolve(root, given));
  return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative.split(path.sep).join('/');
}
