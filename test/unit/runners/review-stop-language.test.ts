import { describe, expect, it } from 'vitest';
import { reviewProfile } from '../../../runners/profiles/review-profile.js';
import { AgentStop } from '../../../src/agent/agent-errors.js';
import type { TaskJob } from '../../../src/queue/task-job.js';

/** A review of acme/web's main (no pull request) that stopped with `stop`, asked in a thread speaking `language`. */
async function stoppedReview(stop: AgentStop, language?: string) {
  const job = {
    instruction: 'review src/cart.ts',
    category: 'code-review',
    elements: {},
    language,
    repo: { owner: 'acme', name: 'web' },
    origin: { type: 'slack', channel: 'C1', threadTs: '1700000000.000100', messageTs: '1700000000.000100' },
  } as unknown as TaskJob;
  const run = {
    job,
    deps: { config: { file: { review: { githubReview: false } } } },
    context: { signal: new AbortController().signal },
    log: { info: () => undefined, warn: () => undefined },
    state: { pr: null },
    repository: 'acme/web',
    workspace: { baseBranch: 'main' },
    started: Date.now(),
  };
  const agentRun = { outcome: 'stopped', stop, finalText: '', steps: 30, costUsd: 0.5, usage: {} };
  return reviewProfile().publish(run as never, { run: agentRun as never }, undefined);
}

describe("a review that stopped early, in the thread's language", () => {
  const limit = new AgentStop('step_limit', 'The step limit (30 steps) was reached.', { limit: { steps: 30 } });

  it('says the limit and that the review is incomplete in German and French; the record keeps the English', async () => {
    const de = await stoppedReview(limit, 'de');
    expect(de.threadStopReason).toBe(
      'Das Schrittlimit (30 Schritte) wurde erreicht. Der Review ist unvollständig. Um weiterzumachen, erwähne mich in diesem Thread.',
    );
    expect(de.stopReason).toBe('The step limit (30 steps) was reached. The review is incomplete; mention me in this thread to try again.');
    const fr = await stoppedReview(limit, 'fr');
    expect(fr.threadStopReason).toMatch(/La revue est incomplète\. Pour continuer, mentionnez-moi dans ce fil\.$/);
  });

  it('leaves an English thread, and a stop Wrench has no words for, to the English reason', async () => {
    expect((await stoppedReview(limit, 'en')).threadStopReason).toBeUndefined();
    expect((await stoppedReview(new AgentStop('model_failed', 'something odd'), 'de')).threadStopReason).toBeUndefined();
  });
});
