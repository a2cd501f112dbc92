import { CronExpressionParser } from 'cron-parser';

/**
 * When a schedule's cron pattern comes due, read with cron-parser: the parser BullMQ's job schedulers compute their own
 * next occurrence with, so what a card shows is what the scheduler will do. Patterns have five fields, or six with
 * seconds first (`*\/3 * * * * *`).
 */

/** Whether `timeZone` is an IANA zone this Node knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(timeZone: string): boolean {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a cron pattern (cron-parser's words), or undefined when it is valid. */
export function cronProblem(pattern: string): string | undefined {
  const fields = pattern.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return `a cron pattern has 5 fields (or 6 with seconds first), this one has ${fields.length}`;
  try {
    CronExpressionParser.parse(pattern, { tz: 'UTC' }).next();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The next `count` times `pattern` comes due in `timeZone`, after `from`. */
export function nextRuns(pattern: string, timeZone: string, count: number, from: Date = new Date()): Date[] {
  return CronExpressionParser.parse(pattern, { tz: timeZone, currentDate: from })
    .take(count)
    .map((date) => date.toDate());
}

/**
 * The times `pattern` came due in `timeZone` after `after` and up to `until` (ms, both): how many, the first and the last. As
 * BullMQ's scheduler computes its next occurrence (cron-parser from a date), so these are the occurrences it never added.
 */
export function dueTimesBetween(pattern: string, timeZone: string, after: number, until: number): { count: number; first?: number; last?: number } {
  if (until <= after) return { count: 0 };
  const times = CronExpressionParser.parse(pattern, { tz: timeZone, currentDate: new Date(after), endDate: new Date(until) });
  let count = 0;
  let first: number | undefined;
  let last: number | undefined;
  while (times.hasNext()) {
    last = times.next().getTime();
    first ??= last;
    count++;
  }
  return { count, first, last };
}

/** The shortest gap, in seconds, between two of the next `sample` occurrences: how often the schedule can fire at most. */
export function shortestGapSeconds(pattern: string, timeZone: string, sample = 50, from: Date = new Date()): number {
  const times = nextRuns(pattern, timeZone, sample, from);
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, ((times[i] as Date).getTime() - (times[i - 1] as Date).getTime()) / 1000);
  return shortest;
}

/** A time as the person reads it in their zone: `Mon 30 Nov 2026, 09:00 (Europe/Berlin)`. */
export function formatRunTime(time: Date, timeZone: string, locale = 'en-GB'): string {
  const text = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: time.getSeconds() === 0 ? undefined : '2-digit',
    hourCycle: 'h23',
  }).format(time);
  return `${text} (${timeZone})`;
}
