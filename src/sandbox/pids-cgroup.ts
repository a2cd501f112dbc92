import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';

/** A per-command cgroup that caps the number of tasks and knows every process in it, even ones that setsid. */
export interface PidsCgroup {
  readonly dir: string;
  /** SIGKILL every process in the cgroup until it is empty. */
  killAll(): Promise<void>;
  /** Remove the (empty) cgroup; gives up quietly after a few tries. */
  remove(): Promise<void>;
}

let parentDir: Promise<string | null> | undefined;

/** A fresh pids cgroup limited to `maxTasks`, or null when the host offers none that Wrench may write. */
export async function createPidsCgroup(maxTasks: number): Promise<PidsCgroup | null> {
  parentDir ??= findWritableParent();
  const parent = await parentDir;
  if (!parent) return null;
  const dir = path.join(parent, `wrench-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir);
    await writeFile(path.join(dir, 'pids.max'), String(Math.max(1, Math.floor(maxTasks))));
  } catch {
    await rmdir(dir).catch(() => undefined);
    return null;
  }
  return { dir, killAll: () => killAll(dir), remove: () => removeDir(dir) };
}

/** Whether commands can be put in a pids cgroup here (otherwise only the timeout and a host-pressure watchdog stop a fork bomb). */
export async function pidsCgroupAvailable(): Promise<boolean> {
  parentDir ??= findWritableParent();
  return (await parentDir) !== null;
}

async function findWritableParent(): Promise<string | null> {
  const lines = (await readFile('/proc/self/cgroup', 'utf8').catch(() => '')).split('\n');
  const v1 = lines.map((line) => line.split(':')).find((parts) => parts.length >= 3 && (parts[1] ?? '').split(',').includes('pids'));
  const candidates: string[] = [];
  if (v1) candidates.push(path.join(CGROUP_ROOT, 'pids', v1.slice(2).join(':')));
  const v2 = lines.find((line) => line.startsWith('0::'));
  if (v2 && (await exists(path.join(CGROUP_ROOT, 'cgroup.controllers')))) candidates.push(path.join(CGROUP_ROOT, v2.slice(3)));
  for (const candidate of candidates) if (await canCreateChild(candidate)) return candidate;
  return null;
}

async function canCreateChild(parent: string): Promise<boolean> {
  const probe = path.join(parent, `wrench-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(probe);
  } catch {
    return false;
  }
  const ok = await exists(path.join(probe, 'pids.max'));
  await rmdir(probe).catch(() => undefined);
  return ok;
}

async function killAll(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(() => undefined);
  for (let attempt = 0; attempt < 50; attempt++) {
    const pids = await listProcs(dir);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await sleep(20);
  }
}

async function listProcs(dir: string): Promise<number[]> {
  const text = await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .map((line) => Number(line))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

async function removeDir(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await sleep(50);
    }
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
