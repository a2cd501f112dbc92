import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { git, gitOut } from './git.js';

/** A file's new content; `null` deletes it; `executable` sets mode 100755. */
export type FileChange = string | null | { content: string; executable?: boolean };

export interface CommitSpec {
  message: string;
  files: Record<string, FileChange>;
  author?: { name: string; email: string };
  /** ISO date for author and committer. */
  date?: string;
}

/**
 * Writes one real commit onto `branch` of a bare repository with git plumbing (no work tree):
 * the parent is the branch tip, or `from` for a new branch. Returns the commit sha.
 */
export async function commitToBranch(gitDir: string, branch: string, spec: CommitSpec, from?: string): Promise<string> {
  const parent = (await resolveCommit(gitDir, `refs/heads/${branch}`)) ?? (from ? await resolveCommit(gitDir, from) : undefined);
  if (from && !parent) throw new Error(`cannot start ${branch} from unknown ref ${from}`);
  const indexFile = join(tmpdir(), `fake-index-${randomBytes(6).toString('hex')}`);
  const env: Record<string, string> = { GIT_INDEX_FILE: indexFile };
  if (spec.author) {
    env.GIT_AUTHOR_NAME = spec.author.name;
    env.GIT_AUTHOR_EMAIL = spec.author.email;
    env.GIT_COMMITTER_NAME = spec.author.name;
    env.GIT_COMMITTER_EMAIL = spec.author.email;
  }
  if (spec.date) {
    env.GIT_AUTHOR_DATE = spec.date;
    env.GIT_COMMITTER_DATE = spec.date;
  }
  try {
    if (parent) await git(['read-tree', parent], { gitDir, env });
    else await git(['read-tree', '--empty'], { gitDir, env });
    for (const [path, change] of Object.entries(spec.files)) {
      if (change === null) {
        await git(['update-index', '--force-remove', '--', path], { gitDir, env });
        continue;
      }
      const content = typeof change === 'string' ? change : change.content;
      const mode = typeof change === 'object' && change.executable ? '100755' : '100644';
      const blob = await gitOut(['hash-object', '-w', '--stdin'], { gitDir, input: content });
      await git(['update-index', '--add', '--cacheinfo', `${mode},${blob},${path}`], { gitDir, env });
    }
    const tree = await gitOut(['write-tree'], { gitDir, env });
    const parents = parent ? ['-p', parent] : [];
    const commit = await gitOut(['commit-tree', tree, ...parents, '-m', spec.message], { gitDir, env });
    await git(['update-ref', `refs/heads/${branch}`, commit], { gitDir });
    return commit;
  } finally {
    await rm(indexFile, { force: true });
  }
}

export async function resolveCommit(gitDir: string, ref: string): Promise<string | undefined> {
  const result = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { gitDir, allowFailure: true });
  return result.code === 0 ? result.stdout.trim() : undefined;
}
