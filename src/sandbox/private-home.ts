import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Run `work` with a fresh private HOME directory, removed afterwards (the given one is kept as is). */
export async function withPrivateHome<T>(given: string | undefined, work: (home: string) => Promise<T>): Promise<T> {
  if (given) return work(given);
  const home = await mkdtemp(path.join(tmpdir(), 'wrench-home-'));
  try {
    return await work(home);
  } finally {
    await rm(home, { recursive: true, force: true }).catch(() => undefined);
  }
}
