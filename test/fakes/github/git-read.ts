import { resolveCommit } from './commit-builder.js';
import { parseDiff, type FileDiff } from './diff-parse.js';
import { git, gitOut } from './git.js';

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  message: string;
}

const FORMAT = ['%H', '%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x1f') + '%x1e';

export { resolveCommit };

export async function branchExists(gitDir: string, branch: string): Promise<boolean> {
  return (await resolveCommit(gitDir, `refs/heads/${branch}`)) !== undefined;
}

/** A branch name, tag or sha (full or abbreviated) to a commit sha. */
export function resolveRef(gitDir: string, ref: string): Promise<string | undefined> {
  if (ref.startsWith('refs/')) return resolveCommit(gitDir, ref);
  return resolveCommit(gitDir, `refs/heads/${ref}`).then(async (sha) => sha ?? (await resolveCommit(gitDir, ref)));
}

export async function defaultBranch(gitDir: string): Promise<string> {
  const head = await gitOut(['symbolic-ref', '--short', 'HEAD'], { gitDir });
  return head || 'main';
}

export interface LogFilter {
  path?: string;
  since?: string;
  until?: string;
}

/** Commits reachable from `sha`, newest first (git log order). */
export async function log(gitDir: string, sha: string, filter: LogFilter = {}): Promise<CommitInfo[]> {
  const args = ['log', `--format=${FORMAT}`];
  if (filter.since) args.push(`--since=${filter.since}`);
  if (filter.until) args.push(`--until=${filter.until}`);
  args.push(sha);
  if (filter.path) args.push('--', filter.path);
  return parseLog(await gitOut(args, { gitDir }));
}

/** Commits in `base..head`, oldest first. */
export async function commitsBetween(gitDir: string, base: string, head: string): Promise<CommitInfo[]> {
  return parseLog(await gitOut(['log', '--reverse', `--format=${FORMAT}`, `${base}..${head}`], { gitDir }));
}

export async function commitInfo(gitDir: string, sha: string): Promise<CommitInfo> {
  const [info] = parseLog(await gitOut(['log', '-1', `--format=${FORMAT}`, sha], { gitDir }));
  if (!info) throw new Error(`git log printed no commit for ${sha}`);
  return info;
}

export async function diffFiles(gitDir: string, from: string, to: string): Promise<FileDiff[]> {
  const output = await gitOut(['diff', '--no-color', '--no-ext-diff', '--full-index', '-M', from, to], { gitDir });
  return parseDiff(output ? `${output}\n` : '');
}

export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | undefined> {
  const result = await git(['merge-base', a, b], { gitDir, allowFailure: true });
  return result.code === 0 ? result.stdout.trim() : undefined;
}

export async function countBetween(gitDir: string, from: string, to: string): Promise<number> {
  return Number(await gitOut(['rev-list', '--count', `${from}..${to}`], { gitDir }));
}

export async function readBlob(gitDir: string, ref: string, path: string): Promise<Buffer | undefined> {
  const result = await git(['cat-file', 'blob', `${ref}:${path}`], { gitDir, allowFailure: true });
  return result.code === 0 ? Buffer.from(result.stdout) : undefined;
}

export async function listBranches(gitDir: string): Promise<{ name: string; sha: string }[]> {
  const output = await gitOut(['for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads'], { gitDir });
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name = '', sha = ''] = line.split(' ');
      return { name, sha };
    });
}

function parseLog(output: string): CommitInfo[] {
  return output
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.includes('\x1f'))
    .map((record) => {
      const [sha = '', tree = '', parents, an = '', ae = '', ad = '', cn = '', ce = '', cd = '', message = ''] = record.split('\x1f');
      return {
        sha,
        tree,
        parents: parents ? parents.split(' ') : [],
        author: { name: an, email: ae, date: isoZ(ad) },
        committer: { name: cn, email: ce, date: isoZ(cd) },
        message: message.replace(/\n+$/, ''),
      };
    });
}

export function isoZ(date: string | number | Date): string {
  return new Date(date).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
