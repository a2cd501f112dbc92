import { describe, expect, it } from 'vitest';
import { isRunPending } from '../../../src/queue/queue-run.js';
import type { RunRecord } from '../../../src/sessions/thread-session.js';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const run = (change: Partial<RunRecord> = {}): RunRecord => ({
  jobId: 'run-1',
  instruction: 'fix it',
  requester: 'U0ALICE',
  status: 'queued',
  at: new Date(NOW - 5_000).toISOString(),
  ...change,
});

describe('whether an earlier run of a thread is still to come', () => {
  it('follows the job while the queue has it', () => {
    for (const state of ['waiting', 'delayed', 'active', 'prioritized', 'waiting-children'])
      expect(isRunPending(run({ inQueue: true }), state, 60_000, NOW)).toBe(true);
    for (const state of ['completed', 'failed']) expect(isRunPending(run({ inQueue: true }), state, 60_000, NOW)).toBe(false);
  });

  it('a job the queue no longer has ended, once the run was marked in the queue, however young', () => {
    expect(isRunPending(run({ inQueue: true }), 'unknown', 60_000, NOW)).toBe(false);
  });

  it('a run recorded but not yet in the queue is waited for within the queueing grace, not after', () => {
    expect(isRunPending(run(), 'unknown', 60_000, NOW)).toBe(true);
    expect(isRunPending(run({ at: new Date(NOW - 61_000).toISOString() }), 'unknown', 60_000, NOW)).toBe(false);
  });

  it('a run that is over is not pending, whatever the queue says', () => {
    for (const status of ['done', 'failed', 'cancelled', 'waiting'] as const)
      expect(isRunPending(run({ status, inQueue: true }), 'active', 60_000, NOW)).toBe(false);
  });
});
