import { access } from 'node:fs/promises';
import { mirrorDir } from './mirror-cache.js';
import { runGit } from './run-git.js';

export interface RepositoryViewOptions {
  dataDir: string;
  owner: string;
  repo: string;
  /** The instruction: file names matching its words are listed. */
  text: string;
  /** How long git may take; past it there is no view. */
  timeoutMs: number;
}

const MAX_TOP_LEVEL = 40;
const MAX_MATCHES = 25;
/** Words too common in instructions to pick files by. */
const COMMON = new Set(
  'this that with from into have when then than them they what which where there should would could please make sure does doesn fails fail error errors crash crashes test tests file files code page pages button add fix update change remove write create the and for'.split(
    ' ',
  ),
);

/**
 * A compact view of a repository from its cached mirror (never fetched for this): the top level of its default
 * branch, and the files whose names match the instruction's words, so the reader does not ask what the code
 * answers. Undefined when no mirror is cached or git does not answer in time.
 */
export async function repositoryView(options: RepositoryViewOptions): Promise<string | undefined> {
  const dir = mirrorDir(options.dataDir, options.owner, options.repo);
  const started = Date.now();
  const git = (args: string[]) => runGit(args, { cwd: dir, timeoutMs: Math.max(1, options.timeoutMs - (Date.now() - started)) });
  try {
    await access(dir);
    // One listing of every file (a git process is most of the time here): the top level is read from it.
    const all = (await git(['ls-tree', '-r', '--name-only', '-z', 'HEAD'])).split('\0').filter(Boolean);
    // Past the deadline there is no view: a git that answered anyway is not a reason to be late.
    if (all.length === 0 || Date.now() - started > options.timeoutMs) return undefined;
    const top = topLevel(all);
    const listed = top.slice(0, MAX_TOP_LEVEL);
    const more = top.length > MAX_TOP_LEVEL ? ` (and ${top.length - MAX_TOP_LEVEL} more)` : '';
    const matches = matchingFiles(all, options.text);
    const lines = [`Top level of ${options.owner}/${options.repo} (${all.length} files): ${listed.join(' ')}${more}`];
    if (matches.length > 0) lines.push(`Files whose names match words of the instruction:\n${matches.join('\n')}`);
    return lines.join('\n');
  } catch {
    return undefined;
  }
}

/** The top level of a tree from its files' paths as `ls-tree -r` lists them: in git's order, a folder as `name/`. */
function topLevel(paths: string[]): string[] {
  const names = new Map<string, string>();
  for (const path of paths) {
    const slash = path.indexOf('/');
    const name = slash < 0 ? path : path.slice(0, slash);
    if (!names.has(name)) names.set(name, slash < 0 ? name : `${name}/`);
  }
  return [...names.values()];
}

/** Files whose name (without extension) contains a word of the instruction, the most specific words first. */
function matchingFiles(paths: string[], text: string): string[] {
  const words = [...new Set(identifierParts(text).flatMap((word) => [word, word.replace(/(?:es|s)$/, '')]))].filter(
    (word) => word.length >= 4 && !COMMON.has(word),
  );
  if (words.length === 0) return [];
  const scored = paths
    .map((path) => {
      const name = (path.split('/').pop() ?? path).toLowerCase().replace(/\.[^.]*$/, '');
      const hits = words.filter((word) => name.includes(word) || path.toLowerCase().includes(`/${word}/`)).length;
      return { path, hits };
    })
    .filter(({ hits }) => hits > 0)
    .sort((a, b) => b.hits - a.hits || a.path.length - b.path.length);
  return scored.slice(0, MAX_MATCHES).map(({ path }) => path);
}

/** Lowercased words, with camelCase and snake_case names split into their parts as well. */
function identifierParts(text: string): string[] {
  const tokens = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return tokens.flatMap((token) => {
    const parts = token
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .split(/[\s_]+/)
      .map((part) => part.toLowerCase());
    return [token.toLowerCase(), ...parts];
  });
}
