import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { access, mkdir, readdir, rename, rm, utimes } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Directories the setup step fills and that move with the tree. A Python virtualenv is not among them: its
 * scripts name their own absolute path, so a copy in another working tree would not run.
 */
export const DEPENDENCY_DIRS = ['node_modules', 'vendor'];

/**
 * What the setup step installed, kept per repository and dependency key as a read-only snapshot on this machine's
 * disk. A job restores its own full copy (a reflink where the file system has them, else a plain copy): hard links
 * would let an agent that writes a dependency file in place change the snapshot, so they are not used.
 */
export class DependencySnapshots {
  constructor(private readonly root: string) {}

  /** Copies the snapshot's directories into `dir`; false when there is no snapshot for this key. */
  async restore(repository: string, key: string, dir: string): Promise<boolean> {
    const snapshot = this.path(repository, key);
    const names = await readdir(snapshot).catch(() => undefined);
    if (!names) return false;
    const now = new Date();
    await utimes(snapshot, now, now).catch(() => undefined);
    for (const name of names.filter((entry) => DEPENDENCY_DIRS.includes(entry))) {
      const target = path.join(dir, name);
      await rm(target, { recursive: true, force: true });
      await run('cp', ['-a', '--reflink=auto', path.join(snapshot, name), target]);
      await run('chmod', ['-R', 'u+w', target]);
    }
    return true;
  }

  /** Keeps the dependency directories of `dir` (after a successful setup); false when there were none. */
  async save(repository: string, key: string, dir: string): Promise<boolean> {
    const present = (await Promise.all(DEPENDENCY_DIRS.map(async (name) => ((await exists(path.join(dir, name))) ? name : undefined)))).filter(
      (name): name is string => !!name,
    );
    if (present.length === 0) return false;
    const snapshot = this.path(repository, key);
    if (await exists(snapshot)) return true;
    const temporary = `${snapshot}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    await mkdir(temporary, { recursive: true });
    try {
      for (const name of present) {
        await run('cp', ['-a', '--reflink=auto', path.join(dir, name), path.join(temporary, name)]);
        await run('chmod', ['-R', 'a-w', path.join(temporary, name)]);
      }
      await rename(temporary, snapshot).catch(async (error: NodeJS.ErrnoException) => {
        if (!(await exists(snapshot))) throw error;
      });
    } finally {
      if (await exists(temporary)) {
        await run('chmod', ['-R', 'u+w', temporary]).catch(() => undefined);
        await rm(temporary, { recursive: true, force: true });
      }
    }
    return true;
  }

  private path(repository: string, key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not a dependency key: ${key}`);
    return path.join(this.root, repositoryFolder(repository), key);
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** A repository's folder name in a cache (`owner+repo`). */
export function repositoryFolder(repository: string): string {
  return repository.replace('/', '+').replace(/[^A-Za-z0-9_.+-]/g, '_');
}
