import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { VerificationCommands, VerificationRun } from '../verification/verification-types.js';

export interface BaselineKeyParts {
  repository: string;
  /** The commit the baseline ran on. */
  baseSha: string;
  commands: Pick<VerificationCommands, 'test' | 'lint'>;
  dependencyKey: string;
}

const outcome = z.object({
  command: z.string(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
  passed: z.boolean(),
  summary: z.object({
    passed: z.number().optional(),
    failed: z.number().optional(),
    skipped: z.number().optional(),
    failedTests: z.array(z.string()),
    runner: z.string().optional(),
  }),
  outputTail: z.string(),
  durationMs: z.number(),
});
const storedBaseline = z.object({ key: z.string(), run: z.object({ test: outcome.optional(), lint: outcome.optional() }) });

export function baselineKey(parts: BaselineKeyParts): string {
  return createHash('sha256')
    .update(JSON.stringify([parts.repository, parts.baseSha, parts.commands.test ?? null, parts.commands.lint ?? null, parts.dependencyKey]))
    .digest('hex');
}

/**
 * Test and lint results on a base commit, kept on this machine's disk (one JSON file per key, written atomically,
 * so several worker processes share it) and reused by the next job on the same commit.
 */
export class BaselineCache {
  constructor(private readonly dir: string) {}

  async get(key: string): Promise<VerificationRun | undefined> {
    const text = await readFile(this.file(key), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const stored = storedBaseline.safeParse(JSON.parse(text));
      if (!stored.success || stored.data.key !== key) return undefined;
      const now = new Date();
      await utimes(this.file(key), now, now).catch(() => undefined);
      return stored.data.run;
    } catch {
      return undefined;
    }
  }

  async put(key: string, run: VerificationRun): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temporary = `${this.file(key)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, JSON.stringify({ key, run }));
    await rename(temporary, this.file(key));
  }

  private file(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not a baseline key: ${key}`);
    return path.join(this.dir, `${key}.json`);
  }
}
