import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { CommandOutcome } from '../verification/verification-types.js';

const stored = z.object({
  repository: z.string(),
  dependencyKey: z.string(),
  at: z.number(),
  outcome: z.object({
    command: z.string(),
    exitCode: z.number().nullable(),
    timedOut: z.boolean(),
    outputTail: z.string(),
    durationMs: z.number(),
  }),
});

/** A setup step's failure as remembered: its outcome, and when it ran. */
export interface RememberedSetupFailure {
  outcome: CommandOutcome;
  at: Date;
}

/**
 * Setup steps that failed, per repository and dependency key (the lock files, the setup command, the runtimes), kept
 * on this machine's disk for `ttlMs`: a later job on the same key says the failure at once instead of running the
 * step again (an unreachable registry costs minutes of retries each time). One JSON file per key, written atomically.
 */
export class SetupFailures {
  constructor(
    private readonly dir: string,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(repository: string, dependencyKey: string): Promise<RememberedSetupFailure | undefined> {
    const text = await readFile(this.file(repository, dependencyKey), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    let parsed: z.infer<typeof stored> | undefined;
    try {
      const result = stored.safeParse(JSON.parse(text));
      parsed = result.success ? result.data : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.repository !== repository || parsed.dependencyKey !== dependencyKey) return undefined;
    if (this.now() - parsed.at >= this.ttlMs) {
      await this.forget(repository, dependencyKey);
      return undefined;
    }
    return { outcome: { ...parsed.outcome, passed: false, summary: { failedTests: [] } }, at: new Date(parsed.at) };
  }

  async put(repository: string, dependencyKey: string, outcome: CommandOutcome): Promise<void> {
    const { command, exitCode, timedOut, outputTail, durationMs } = outcome;
    await mkdir(this.dir, { recursive: true });
    const file = this.file(repository, dependencyKey);
    const temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, JSON.stringify({ repository, dependencyKey, at: this.now(), outcome: { command, exitCode, timedOut, outputTail, durationMs } }));
    await rename(temporary, file);
  }

  async forget(repository: string, dependencyKey: string): Promise<void> {
    await rm(this.file(repository, dependencyKey), { force: true });
  }

  private file(repository: string, dependencyKey: string): string {
    return path.join(
      this.dir,
      `${createHash('sha256')
        .update(JSON.stringify([repository, dependencyKey]))
        .digest('hex')}.json`,
    );
  }
}
