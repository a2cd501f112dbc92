import { describe, expect, it } from 'vitest';
import { redisKeys } from '../../../src/redis/redis-keys.js';

describe('redis keys: every key under the prefix, one name per purpose', () => {
  const keys = redisKeys('wrench-test');

  it('puts every key under the prefix and gives no two purposes the same key', () => {
    const all = [
      keys.slackEvent('Ev1'),
      keys.slackUpdates('T1'),
      keys.threadSession('C1', '1.2'),
      keys.pullRequestThread('acme', 'web', 7),
      keys.cancelRequest('job-1'),
      keys.cancelChannel,
      keys.jobWaiters('tasks', 'job-1'),
      keys.runSlots.thread('C1:1.2'),
      keys.runSlots.global,
      keys.runSlots.repository('acme/web'),
      keys.runSlots.user('U1'),
      keys.outbox.queue('C1:1.2'),
      keys.outbox.delivered('C1:1.2'),
      keys.outbox.due,
      keys.outbox.lock('C1:1.2'),
      keys.outbox.undeliverable,
      keys.outbox.undeliverableCount,
      keys.runLog('r1'),
      keys.runLog('r1', 'entries'),
      keys.pagerDutyClaim('incident', 'P1'),
      keys.incidentThread('P1'),
      keys.pagerDutyNoteAuthor,
      keys.triageRecord('t1'),
      keys.triageDismissed('t1'),
      keys.triageAction('a1'),
      keys.githubDelivery('d1'),
      keys.fixDecision('acme', 'web', 7, 'abc'),
      keys.fixDecision('acme', 'web', 7, 'abc', '`ci`'),
      keys.fixRounds('acme', 'web', 7),
      keys.pausedRun('q1'),
      keys.questionSettled('q1'),
    ];
    for (const key of all) expect(key.startsWith('wrench-test:')).toBe(true);
    expect(new Set(all).size).toBe(all.length);
  });

  it('names pull requests case-insensitively, as GitHub does', () => {
    expect(keys.pullRequestThread('Acme', 'Web', 7)).toBe(keys.pullRequestThread('acme', 'web', 7));
    expect(keys.fixRounds('Acme', 'Web', 7)).toBe('wrench-test:github:fix-rounds:acme/web#7');
    expect(keys.fixDecision('Acme', 'Web', 7, 'ABC')).toBe('wrench-test:github:fix:acme/web#7:abc');
    expect(keys.runLog('r1', 'entries')).toBe('wrench-test:runlog:r1:entries');
  });
});
