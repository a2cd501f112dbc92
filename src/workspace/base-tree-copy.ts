import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { removeWorkspace } from './remove-workspace.js';
import { runGit } from './run-git.js';

/**
 * A throw-away checkout of one commit, cloned (objects copied) from a local repository nobody's agent writes to:
 * the base tree a job's baseline runs in while the agent works in the job's own tree.
 */
export async function copyBaseTree(source: string, sha: string, dir: string, originUrl: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  await removeWorkspace(dir);
  await mkdir(dir, { mode: 0o700 });
  const git = (...args: string[]) => runGit(args, { cwd: dir });
  try {
    await git('clone', '--quiet', '--local', '--no-hardlinks', '--no-checkout', '--', source, '.');
    await rm(join(dir, '.git', 'logs'), { recursive: true, force: true });
    await git('remote', 'set-url', 'origin', originUrl);
    await git('checkout', '--quiet', '--detach', sha);
  } catch (error) {
    await removeWorkspace(dir);
    throw error;
  }
}
