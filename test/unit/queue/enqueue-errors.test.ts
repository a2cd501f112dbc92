import { describe, expect, it } from 'vitest';
import type { Queues } from '../../../src/queue/queues.js';
import { enqueueTask } from '../../../src/queue/queues.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import { notQueuedMessage } from '../../../src/slack/help-messages.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

const job = {
  kind: 'task',
  origin: { type: 'slack', teamId: 'T0TEAM', channel: 'C0DEV', threadTs: '1.1', messageTs: '1.1', eventId: 'Ev1' },
  repo: { owner: 'acme', name: 'web' },
  instruction: 'add a test',
  category: 'testing',
  complexity: 'simple',
  elements: {},
  requester: { slackUserId: 'U0ALICE' },
  requestedAt: new Date().toISOString(),
} as unknown as TaskJob;

const queuesWhoseAdd = (add: () => Promise<unknown>) => ({ tasks: { add } }) as unknown as Queues;

describe('why a job was not queued, told truthfully', () => {
  it('a malformed job is a bug in Wrench, not an unavailable queue', async () => {
    const bad = { ...job, origin: { ...job.origin, teamId: 12345 } } as unknown as TaskJob;
    const error = await enqueueTask(
      queuesWhoseAdd(async () => ({})),
      'run-1',
      bad,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_job', message: expect.stringContaining('origin.teamId') });
    expect(notQueuedMessage(error, 'task')).toMatch(/bug in Wrench/);
    expect(notQueuedMessage(error, 'task')).not.toMatch(/unavailable/);
  });

  it('Redis refusing the connection is an unavailable queue', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    const error = await enqueueTask(
      queuesWhoseAdd(async () => Promise.reject(refused)),
      'run-1',
      job,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'queue_unavailable' });
    expect(notQueuedMessage(error, 'task')).toMatch(/queue \(Redis\) is unavailable/);
    // In the thread's language, the command as it is.
    expect(notQueuedMessage(error, 'triage', stringsFor('de'))).toBe(
      ':x: Ich konnte diese Triage nicht einreihen, weil meine Job-Warteschlange (Redis) nicht erreichbar ist. Erwähne mich in einer Minute noch einmal; wenn es weiter fehlschlägt, bitte einen Administrator, `wrench doctor` auszuführen.',
    );
    expect(notQueuedMessage(error, 'task', stringsFor('ja'))).toMatch(
      /^:x: ジョブキュー\(Redis\)が利用できないため、このタスクをキューに追加できませんでした。.*`wrench doctor`/,
    );
  });
});
