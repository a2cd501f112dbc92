import { runGit } from './run-git.js';
import { sanitizeWorkspaceGit } from './workspace-git-guard.js';
import { assertCommitSha } from './commit-sha.js';

/** Paths that differ between `baseSha` and the working tree: tracked changes, deletions and new untracked files. */
export async function workingTreeChanges(dir: string, baseSha: string): Promise<string[]> {
  assertCommitSha(baseSha);
  await sanitizeWorkspaceGit(dir);
  const split = (output: string) => output.split('\0').filter(Boolean);
  const tracked = split(await runGit(['diff', '--name-only', '--no-renames', '--no-ext-diff', '-z', baseSha, '--'], { cwd: dir }));
  const untracked = split(await runGit(['ls-files', '--others', '--exclude-standard', '-z'], { cwd: dir }));
  return [...new Set([...tracked, ...untracked])].sort();
}

/** Whether `path` exists in `sha`. */
export async function existsAt(dir: string, sha: string, path: string): Promise<boolean> {
  try {
    await runGit(['cat-file', '-e', `${sha}:${path}`], { cwd: dir });
    return true;
  } catch {
    return false;
  }
}
