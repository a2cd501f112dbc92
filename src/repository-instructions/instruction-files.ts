import { posix } from 'node:path';
import { runGit } from '../workspace/run-git.js';

/**
 * The files in which a repository tells coding agents how to work in it, read at its root: `AGENTS.md` (the
 * convention several agents share), `CLAUDE.md` and GitHub Copilot's `.github/copilot-instructions.md`.
 */
export const ROOT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'] as const;

/** The one name that also applies below the root: the nearest `AGENTS.md` above a file is the one for it. */
export const NESTED_INSTRUCTION_FILE = 'AGENTS.md';

export interface InstructionLimits {
  /** Characters of one file given to the model; the rest is left out, and said. */
  perFileChars: number;
  /** Characters of all files of one run together, nested ones found later included. */
  totalChars: number;
}

/** Git reads only what the checkout holds: a missing object is an error, never fetched from the remote (git 2.44+). */
const LOCAL_ONLY = { GIT_NO_LAZY_FETCH: '1' };

export const DEFAULT_INSTRUCTION_LIMITS: InstructionLimits = { perFileChars: 12_000, totalChars: 32_000 };

/** One entry of the commit's tree: a blob, or a symbolic link (its target is the blob's text). */
export interface TreeEntry {
  path: string;
  mode: string;
  sha: string;
}

/**
 * The instruction files in the tree of `ref` (a commit), read from git's objects, not from the working tree: the
 * root files that exist, and every `AGENTS.md` below the root. Directories the agent may not see are not special:
 * what is committed is what the repository says.
 */
export async function listInstructionFiles(dir: string, ref = 'HEAD'): Promise<{ commit: string; entries: Map<string, TreeEntry> }> {
  const commit = (await runGit(['rev-parse', '--verify', `${ref}^{commit}`], { cwd: dir, env: LOCAL_ONLY })).trim();
  const listing = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: dir, env: LOCAL_ONLY, timeoutMs: 60_000 });
  const entries = new Map<string, TreeEntry>();
  for (const record of listing.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, sha] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    if (type !== 'blob' || !mode || !sha) continue;
    entries.set(path, { path, mode, sha });
  }
  return { commit, entries };
}

/** Whether `path` is one of the files this feature reads (a root file, or an `AGENTS.md` anywhere). */
export function isInstructionFile(path: string): boolean {
  return (ROOT_INSTRUCTION_FILES as readonly string[]).includes(path) || posix.basename(path) === NESTED_INSTRUCTION_FILE;
}

/**
 * The blob an entry stands for: itself, or for a symbolic link (`CLAUDE.md -> AGENTS.md` is common) the file it
 * points at inside the repository; undefined for a link that leaves the repository or points at nothing committed.
 */
export async function resolveEntry(dir: string, entry: TreeEntry, entries: Map<string, TreeEntry>): Promise<TreeEntry | undefined> {
  if (entry.mode !== '120000') return entry;
  const target = (await runGit(['cat-file', 'blob', entry.sha], { cwd: dir, env: LOCAL_ONLY })).trim();
  if (!target || posix.isAbsolute(target)) return undefined;
  const resolved = posix.normalize(posix.join(posix.dirname(entry.path), target));
  if (resolved.startsWith('../') || resolved === '..') return undefined;
  const found = entries.get(resolved);
  return found && found.mode !== '120000' ? found : undefined;
}

/** A blob's text, or undefined when it is not text (a NUL byte in it). */
export async function readBlob(dir: string, sha: string): Promise<string | undefined> {
  const text = await runGit(['cat-file', 'blob', sha], { cwd: dir, env: LOCAL_ONLY });
  return text.includes('\0') ? undefined : text;
}

/** `text` cut to at most `max` characters, at the end of a line when one is near. */
export function boundText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const cut = text.slice(0, Math.max(0, max));
  const lineEnd = cut.lastIndexOf('\n');
  return { text: lineEnd > max * 0.8 ? cut.slice(0, lineEnd + 1) : cut, truncated: true };
}
