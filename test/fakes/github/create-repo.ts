import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { commitToBranch, type CommitSpec, type FileChange } from './commit-builder.js';
import { git } from './git.js';

export interface CreateRepoOptions {
  defaultBranch?: string;
  /** Further commits on the default branch after the initial one, oldest first. */
  commits?: CommitSpec[];
  /** Message, author and date of the initial commit. */
  initial?: Omit<CommitSpec, 'files'>;
}

/** A bare repository with a real history: an initial commit of `files`, then `commits`. */
export async function createBareRepo(gitDir: string, files: Record<string, FileChange>, options: CreateRepoOptions = {}): Promise<string> {
  const branch = options.defaultBranch ?? 'main';
  await mkdir(dirname(gitDir), { recursive: true });
  await git(['init', '--bare', '--quiet', `--initial-branch=${branch}`, gitDir]);
  let head = '';
  if (Object.keys(files).length > 0 || !options.commits?.length) {
    head = await commitToBranch(gitDir, branch, { message: 'Initial commit', ...options.initial, files });
  }
  for (const commit of options.commits ?? []) head = await commitToBranch(gitDir, branch, commit);
  return head;
}
