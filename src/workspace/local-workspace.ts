import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { WrenchError } from '../errors.js';
import type { JobWorkspace } from './job-workspace.js';
import { runGit } from './run-git.js';

/**
 * `wrench run --repo PATH`: a private clone of a local checkout's current branch, so the agent never
 * touches the person's own working tree. The result is pushed back to PATH as a new branch.
 */
export async function prepareLocalWorkspace(options: { dataDir: string; localPath: string; branch: string; jobId: string }): Promise<JobWorkspace> {
  const source = path.resolve(options.localPath);
  const top = await runGit(['rev-parse', '--show-toplevel'], { cwd: source }).catch(() => {
    throw new WrenchError('not_a_repository', `${source} is not a git repository. Pass --repo a checkout or owner/name.`);
  });
  const dir = path.join(path.resolve(options.dataDir), 'workspaces', options.jobId);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const git = (...args: string[]) => runGit(args, { cwd: dir }).then((s) => s.trim());
  const baseBranch = (await runGit(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: top.trim() })).trim();
  await git('clone', '--quiet', '--no-hardlinks', '--', top.trim(), '.');
  await git('checkout', '--quiet', '-b', options.branch);
  const headSha = await git('rev-parse', 'HEAD');
  return { dir, baseBranch, baseSha: headSha, branch: options.branch, headSha };
}

export async function pushToLocal(options: { dir: string; localPath: string; branch: string }): Promise<void> {
  await runGit(['push', '--quiet', '--', path.resolve(options.localPath), `HEAD:refs/heads/${options.branch}`], { cwd: options.dir });
}
