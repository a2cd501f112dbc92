import { describe, expect, it } from 'vitest';
import { readSchedule } from '../../../src/schedules/schedule-phrase.js';
import { cronProblem, formatRunTime, isTimeZone, nextRuns, shortestGapSeconds } from '../../../src/schedules/schedule-times.js';

describe('readSchedule', () => {
  it.each([
    [
      'every Monday at 9:00, update the minor versions of our npm dependencies and open a PR',
      '0 9 * * 1',
      'update the minor versions of our npm dependencies and open a PR',
    ],
    ['every 3 seconds: add a line', '*/3 * * * * *', 'add a line'],
    ['every weekday at 5pm run the audit', '0 17 * * 1-5', 'run the audit'],
    ['at 8:30 every Monday and Thursday, bump deps', '30 8 * * 1,4', 'bump deps'],
    ['daily: check the links', '0 9 * * *', 'check the links'],
    ['cron "*/2 * * * * *": do x', '*/2 * * * * *', 'do x'],
    ['on cron `0 9 * * 1` update the lock file', '0 9 * * 1', 'update the lock file'],
    ['every month on the 1st at 6am, rotate the keys', '0 6 1 * *', 'rotate the keys'],
    ['every 2 hours, refresh', '0 */2 * * *', 'refresh'],
    ['every Tuesday update the changelog', '0 9 * * 2', 'update the changelog'],
    ['Every friday at 12:15pm: tidy', '15 12 * * 5', 'tidy'],
  ])('%s', (text, cron, instruction) => {
    expect(readSchedule(text)).toMatchObject({ cron, instruction });
  });

  it('leaves ordinary tasks alone, "every" inside them included', () => {
    expect(readSchedule('every function in src/ needs a test')).toBeUndefined();
    expect(readSchedule('add a test for formatBytes; run it every day')).toBeUndefined();
    expect(readSchedule('every Monday')).toBeUndefined();
  });

  it('says what is wrong with a time or a pattern it cannot read', () => {
    expect(readSchedule('every Monday at 25:00, update')).toEqual({ problem: expect.stringContaining('25:00') });
    expect(readSchedule('cron "61 * * * *": update')).toEqual({ problem: expect.stringContaining('61 * * * *') });
    expect(readSchedule('every 3 seconds at 9:00, x')).toEqual({ problem: expect.stringContaining('no time of day') });
  });
});

describe('schedule times (cron-parser, as BullMQ reads them)', () => {
  it('gives the next runs in the requester’s time zone', () => {
    const from = new Date('2026-11-29T12:00:00Z'); // a Sunday
    const runs = nextRuns('0 9 * * 1', 'Europe/Berlin', 3, from);
    expect(runs.map((r) => r.toISOString())).toEqual(['2026-11-30T08:00:00.000Z', '2026-12-07T08:00:00.000Z', '2026-12-14T08:00:00.000Z']);
    expect(formatRunTime(runs[0] as Date, 'Europe/Berlin')).toBe('Mon, 30 Nov 2026, 09:00 (Europe/Berlin)');
    expect(nextRuns('0 9 * * 1', 'America/New_York', 1, from)[0]?.toISOString()).toBe('2026-11-30T14:00:00.000Z');
  });

  it('measures the shortest gap and refuses bad patterns and zones', () => {
    expect(shortestGapSeconds('*/3 * * * * *', 'UTC')).toBe(3);
    expect(shortestGapSeconds('0 9 * * 1-5', 'UTC')).toBe(24 * 3600);
    expect(cronProblem('0 9 * *')).toContain('5 fields');
    expect(cronProblem('0 9 * * 1')).toBeUndefined();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
