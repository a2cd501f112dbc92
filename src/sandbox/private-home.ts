import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A HOME directory of its own for a sandbox, made on first use. */
export function privateHome(given?: string): () => Promise<string> {
  let home: Promise<string> | undefined = given ? Promise.resolve(given) : undefined;
  return () => (home ??= mkdtemp(path.join(tmpdir(), 'wrench-home-')));
}
