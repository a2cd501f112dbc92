import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/disk }
sandbox: { mode: bwrap }
`;

/** A real small file system for the data dir: a 16 MB tmpfs (the test runs as root), else the test is skipped. */
function mountSmallDisk(dir: string): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Writes `filler` until `bytes` are written or the disk is full (ENOSPC); returns how many were written. */
function fill(filler: string, bytes = Number.POSITIVE_INFINITY): number {
  const fd = openSync(filler, 'a');
  const chunk = Buffer.alloc(64 * 1024, 1);
  let written = 0;
  try {
    while (written < bytes) written += writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return written;
}

describe('a full disk on the data dir', () => {
  let world: E2eWorld;
  let dataDir: string;
  let mounted = false;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    dataDir = path.join(world.dir.path, 'small-disk');
    mounted = mountSmallDisk(dataDir);
    if (!mounted) return;
    await world.github.createRepo('acme', 'disk', { 'README.md': '# disk\n' });
    // Runs wait below 8 MB free; the mid-run case fills the disk to the last byte after the agent's first step.
    await world.start({ WRENCH_DATA_DIR: dataDir, WRENCH_MIN_FREE_MB: '8' });
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.wrench?.stop();
    if (mounted) execFileSync('umount', ['-l', dataDir]);
    await world?.stop();
  });

  const health = async () => (await fetch(`${world.wrench!.url}/healthz`)).json() as Promise<{ disk?: { status: string; freeMb: number; minFreeMb: number } }>;

  it('below WRENCH_MIN_FREE_MB a new run waits, says so in its thread and /healthz, then starts once there is space', async (context) => {
    if (!mounted) return context.skip('mount -t tmpfs was refused here: no small file system to fill');
    const filler = path.join(dataDir, 'filler');
    fill(filler, 12 * 1024 * 1024);
    expect((await health()).disk).toMatchObject({ status: 'low', minFreeMb: 8 });
    world.anthropic.setScript(
      scriptByRun({
        'disk wait': [
          createFileStep('src/waited.js', 'export {};\n'),
          toolUseResponse([{ name: 'finish_task', input: { summary: 'Added src/waited.js.', verification: 'ok', filesChanged: [], openQuestions: [] } }]),
        ],
      }).items,
    );
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> disk wait: add src/waited.js exporting nothing' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    // The thread says what the run waits for (the line under the thread, from the catalogue), and no model call is made.
    const waiting = await world.slack.waitFor(
      (c) =>
        c.method === 'assistant.threads.setStatus' &&
        c.args.thread_ts === ts &&
        /waiting for disk space on the worker \(\d+ MB free, 8 MB needed/.test(String(c.args.status)),
      30_000,
    );
    expect(String(waiting.args.status)).toMatch(/^is waiting for disk space/);
    expect(world.anthropic.requests).toHaveLength(0);
    rmSync(filler);
    expect((await health()).disk).toMatchObject({ status: 'ok' });
    const reply = await threadReply(world, ts, /PR #\d+/, 60_000);
    expect(reply.text).toContain('PR #');
  });

  it('a run whose disk fills up mid-way keeps its working tree and says so plainly, not with git’s raw error', async (context) => {
    if (!mounted) return context.skip('mount -t tmpfs was refused here: no small file system to fill');
    const filler = path.join(dataDir, 'filler');
    world.anthropic.setScript(
      scriptByRun({
        'disk full': [
          createFileStep('src/kept.js', 'export const kept = true;\n'),
          // While this step's answer is held back, the test fills the data dir's disk to the last byte.
          bashStep('true', 4000),
          toolUseResponse([{ name: 'finish_task', input: { summary: 'Added src/kept.js.', verification: 'ok', filesChanged: [], openQuestions: [] } }]),
        ],
      }).items,
    );
    const before = world.anthropic.requests.length;
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> disk full: add src/kept.js exporting kept' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    await pollFor(
      () => (world.anthropic.requests.length >= before + 2 ? true : undefined),
      60_000,
      () => 'the agent never took its second step',
    );
    fill(filler);
    try {
      const reply = await threadReply(world, ts, /data dir/, 90_000);
      expect(reply.text).toMatch(/The disk of Wrench's data dir filled up \(no space left on device\)/);
      expect(reply.text).not.toMatch(/fatal:|git add|exit 128|ENOSPC/);
      const id = /held\/([^`\s]+)\.tree/.exec(reply.text)?.[1];
      expect(id, reply.text).toBeDefined();
      // The tree is kept whole where the thread says: the agent's uncommitted file is in it, on the run's branch.
      const kept = path.join(dataDir, 'held', `${id}.tree`);
      expect(readFileSync(path.join(kept, 'src', 'kept.js'), 'utf8')).toBe('export const kept = true;\n');
      expect(execFileSync('git', ['-C', kept, 'rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8' }).trim()).toMatch(/^wrench\//);
      expect(world.github.pulls('acme', 'disk').filter((p) => p.headRef.includes('disk-full'))).toHaveLength(0);
    } finally {
      rmSync(filler, { force: true });
    }
    expect(existsSync(filler)).toBe(false);
  });
});
