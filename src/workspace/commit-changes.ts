import type { GitIdentity } from './git-identity.js';
import { assertCommitSha } from './commit-sha.js';
import { type Requester, withTrailers } from './commit-trailers.js';
import { runGit } from './run-git.js';
import { sanitizeWorkspaceGit } from './workspace-git-guard.js';

export interface CommitAllOptions {
  dir: string;
  message: string;
  requester: Requester;
  threadUrl?: string;
  /** Author and committer; default `Wrench <wrench@users.noreply.github.com>`. */
  identity?: GitIdentity;
}

export interface CommitResult {
  sha: string;
  filesChanged: string[];
}

/** Commits every change in the working tree (untracked files too, .gitignore respected); null when nothing changed. */
export async function commitAll(options: CommitAllOptions): Promise<CommitResult | null> {
  const { dir, identity } = options;
  await sanitizeWorkspaceGit(dir);
  const git = (args: string[], input?: string) => runGit(args, { cwd: dir, identity, input });
  await git(['add', '--all', '--', '.']);
  const filesChanged = splitZ(await git(['diff', '--cached', '--name-only', '--no-renames', '-z']));
  if (filesChanged.length === 0) return null;
  const message = await withTrailers(options);
  await git(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '--cleanup=whitespace', '--file=-'], message);
  const sha = (await git(['rev-parse', 'HEAD'])).trim();
  return { sha, filesChanged };
}

export interface ChangedFilesOptions {
  dir: string;
  baseSha: string;
}

/** Files that differ between `baseSha` and HEAD (committed changes), for reports. */
export async function changedFiles({ dir, baseSha }: ChangedFilesOptions): Promise<string[]> {
  assertCommitSha(baseSha);
  await sanitizeWorkspaceGit(dir);
  const output = await runGit(['diff', '--name-only', '--no-renames', '--no-ext-diff', '-z', baseSha, 'HEAD', '--'], {
    cwd: dir,
  });
  return splitZ(output);
}

function splitZ(output: string): string[] {
  return output.split('\0').filter(Boolean);
}

export interface FileLineCounts {
  path: string;
  /** Undefined for a binary file. */
  added?: number;
  removed?: number;
}

/** Lines added and removed per file between `baseSha` and HEAD (`git diff --numstat`), for reports. */
export async function diffLineCounts({ dir, baseSha }: ChangedFilesOptions): Promise<FileLineCounts[]> {
  assertCommitSha(baseSha);
  await sanitizeWorkspaceGit(dir);
  const output = await runGit(['diff', '--numstat', '--no-renames', '--no-ext-diff', '-z', baseSha, 'HEAD', '--'], { cwd: dir });
  return splitZ(output).map((record) => {
    const [added, removed, ...path] = record.split('\t');
    return added === '-' ? { path: path.join('\t') } : { path: path.join('\t'), added: Number(added), removed: Number(removed) };
  });
}
