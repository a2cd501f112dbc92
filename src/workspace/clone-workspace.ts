import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { removeWorkspace } from './remove-workspace.js';
import { runGit } from './run-git.js';
import { type Git, switchBranch } from './switch-branch.js';
import type { JobWorkspace } from './workspace-types.js';

export type { JobWorkspace } from './workspace-types.js';

export interface CloneWorkspaceOptions {
  /** Local repository to clone from (the mirror, or a user's own repository). */
  source: string;
  /** What `origin` points at afterwards: the public URL, so the agent never learns the source path. */
  originUrl: string;
  /** Working tree to create (replaced when it exists); made 0700. */
  dir: string;
  /** For messages, e.g. `acme/web`. */
  label: string;
  /** Default: the source's HEAD branch. */
  baseBranch?: string;
  branch: string;
  existingBranch?: boolean;
}

/**
 * A private clone (objects copied, not hard-linked) with `branch` checked out: new from `origin/<base>`, or the
 * existing remote branch. The source path is scrubbed from the clone's config and reflogs.
 */
export async function cloneWorkspace(options: CloneWorkspaceOptions): Promise<JobWorkspace> {
  const { dir, branch, label } = options;
  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  await chmod(dirname(dir), 0o700);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { mode: 0o700 });
  await chmod(dir, 0o700);
  const git: Git = (...args) => runGit(args, { cwd: dir }).then((out) => out.trim());
  try {
    await git('clone', '--quiet', '--local', '--no-hardlinks', '--no-checkout', '--', options.source, '.');
    await rm(join(dir, '.git', 'logs'), { recursive: true, force: true });
    await git('remote', 'set-url', 'origin', options.originUrl);

    return await switchBranch(git, { dir, label, baseBranch: options.baseBranch, branch, existingBranch: options.existingBranch });
  } catch (error) {
    await removeWorkspace(dir);
    throw error;
  }
}
