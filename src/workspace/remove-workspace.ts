import { chmod, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WrenchError } from '../errors.js';

/** Deletes a job's working tree, even when the agent left read-only directories behind. */
export async function removeWorkspace(dir: string): Promise<void> {
  if (resolve(dir) === resolve('/')) throw new WrenchError('invalid_workspace', 'Refusing to remove "/".');
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    await makeWritable(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) await makeWritable(join(dir, entry.name));
  }
}
