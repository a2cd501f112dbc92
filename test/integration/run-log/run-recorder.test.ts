import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { RunLogStore } from '../../../src/run-log/run-log-store.js';
import { recordingReporter, RunRecorder } from '../../../src/run-log/run-recorder.js';
import { createRedactor } from '../../../src/security/redact.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const log = pino({ level: 'silent' });

describe('run records on a real Redis', () => {
  let server: RedisServer;
  let writer: Redis;
  let reader: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    writer = new Redis(server.url);
    reader = new Redis(server.url);
  });
  afterAll(async () => {
    writer.disconnect();
    reader.disconnect();
    await server.stop();
  });

  const start = async (options: { maxBytes?: number; prefix?: string } = {}) => {
    const prefix = options.prefix ?? uniqueName('runs');
    const metrics = createMetrics();
    const store = new RunLogStore(writer, prefix, { retentionDays: 30 });
    const recorder = await RunRecorder.start(
      store,
      createRedactor([SECRET]),
      {
        id: uniqueName('job'),
        repository: 'acme/web',
        instruction: 'fix the bug',
        category: 'bug-fixing',
        requester: 'U0ALICE',
        channel: 'C0DEV',
        queuedAt: Date.now() - 2000,
      },
      { maxBytes: options.maxBytes ?? 1024 * 1024, metrics },
      log,
    );
    // The web role reads with its own connection, as on another machine.
    return { recorder, metrics, prefix, reader: new RunLogStore(reader, prefix, { retentionDays: 30 }) };
  };

  it('keeps a readable, redacted timeline with phases, diffs, verification and the outcome; counts it in the metrics', async () => {
    const { recorder, metrics, reader: store, prefix } = await start();
    recorder.phase('preparing', 'cloning acme/web');
    recorder.phase('working', 'reading the code');
    recorder.agentEvent({ type: 'text', step: 1, detail: `I found ${SECRET} in the env` });
    recorder.agentEvent({
      type: 'tool_result',
      step: 1,
      detail: 'running `env`',
      call: { id: 't1', name: 'bash', input: { command: 'env' }, output: `GITHUB_TOKEN=${SECRET}\nHOME=/tmp`, isError: false },
    });
    recorder.agentEvent({
      type: 'tool_result',
      step: 2,
      detail: 'editing a.js',
      call: {
        id: 't2',
        name: 'str_replace_based_edit_tool',
        input: { command: 'str_replace', path: 'a.js', old_str: 'a', new_str: 'b' },
        output: 'ok',
        isError: false,
      },
    });
    recorder.agentEvent({
      type: 'usage',
      step: 2,
      detail: 'usage',
      usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0.0006,
      turn: { usage: { inputTokens: 60, outputTokens: 5, cacheReadTokens: 40, cacheWriteTokens: 0 }, latencyMs: 1234, budgetWaitMs: 2500 },
    });
    recorder.phase('verifying', 'running the tests');
    recorder.verification({ text: 'npm test: 3 passed', regressed: false });
    recorder.finish({
      status: 'pr_opened',
      repository: 'acme/web',
      instruction: 'x',
      filesChanged: ['a.js'],
      durationMs: 1,
      pullRequest: { number: 4, url: 'https://github.com/acme/web/pull/4', draft: false },
      usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0.0006,
    });
    await recorder.flush();

    const summary = (await store.get(recorder.id))!;
    expect(summary).toMatchObject({ status: 'done', outcome: 'pr_opened', pullRequest: { number: 4 }, usage: { inputTokens: 100 } });
    expect(summary.phases.map((p) => p.name)).toEqual(['queued', 'preparing', 'working', 'verifying']);
    expect(summary.phases.every((p) => p.endedAt !== undefined)).toBe(true);
    const entries = await store.entries(recorder.id);
    expect(entries.map((e) => e.kind)).toEqual(['phase', 'phase', 'text', 'tool', 'edit', 'turn', 'phase', 'verification']);
    // The model call's own tokens and latency, not the run's running total.
    expect(entries.find((e) => e.kind === 'turn')).toMatchObject({
      step: 2,
      latencyMs: 1234,
      budgetWaitMs: 2500,
      usage: { inputTokens: 60, outputTokens: 5, cacheReadTokens: 40, cacheWriteTokens: 0 },
    });
    expect(entries.find((e) => e.kind === 'edit')).toMatchObject({ path: 'a.js', diff: expect.stringContaining('-a\n+b') });
    expect(await store.entries(recorder.id, 5)).toHaveLength(3);
    const raw = JSON.stringify(await reader.lrange(`${prefix}:runlog:${recorder.id}:entries`, 0, -1));
    expect(raw).not.toContain(SECRET);
    expect(raw).toContain('[redacted]');
    expect(await reader.ttl(`${prefix}:runlog:${recorder.id}:entries`)).toBeGreaterThan(29 * 24 * 3600);
    expect((await store.recentFor('U0ALICE')).map((r) => r.id)).toEqual([recorder.id]);

    const text = await metrics.registry.metrics();
    expect(text).toContain('wrench_runs_total{category="bug-fixing",outcome="pr_opened"} 1');
    expect(text).toMatch(/wrench_run_phase_duration_seconds_count\{phase="queued"\} 1/);
    expect(text).toContain('wrench_model_tokens_total{kind="input"} 100');
  });

  it('stops at the size cap with one note, keeps the outcome, and bounds long outputs', async () => {
    const { recorder, reader: store } = await start({ maxBytes: 16 * 1024 });
    for (let i = 0; i < 20; i++) {
      recorder.agentEvent({
        type: 'tool_result',
        step: i,
        detail: 'cat',
        call: { id: `t${i}`, name: 'bash', input: { command: `cat big${i}` }, output: 'x'.repeat(50_000), isError: false },
      });
    }
    recorder.fail('The run failed: the model API answered 500.');
    await recorder.flush();
    const entries = await store.entries(recorder.id);
    const notes = entries.filter((e) => e.kind === 'note');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ level: 'warning', text: expect.stringContaining('size cap') });
    const tool = entries.find((e) => e.kind === 'tool')!;
    expect(tool.kind === 'tool' && tool.output.length).toBeLessThan(13_000);
    expect(tool.kind === 'tool' && tool.output).toContain('characters not kept');
    const summary = (await store.get(recorder.id))!;
    expect(summary).toMatchObject({ status: 'failed', outcome: 'failed', truncated: true });
    expect(summary.bytes).toBeLessThanOrEqual(16 * 1024);
  });

  it('a run paused on its question ends its record as waiting, with no usage of its own (the resumed run carries it)', async () => {
    const { recorder, reader: store } = await start();
    const shown: string[] = [];
    const reporter = recordingReporter(
      { phase: async (phase) => void shown.push(phase), finished: async () => undefined, failed: async () => undefined },
      recorder,
    );
    await reporter.phase('working', { key: 'readingCode' });
    await reporter.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
    await recorder.flush();
    const summary = (await store.get(recorder.id))!;
    expect(summary).toMatchObject({ status: 'done', outcome: 'waiting', summary: 'asked <@U0ALICE> a question' });
    expect(summary.usage).toBeUndefined();
    expect(shown).toEqual(['working', 'waiting']);
  });
});
