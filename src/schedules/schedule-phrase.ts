import { cronProblem } from './schedule-times.js';

/** A request read as recurring work: when (a cron pattern and its words) and what (the instruction each run gets). */
export interface ScheduleRequest {
  cron: string;
  /** The words that said when, as written: shown on the card beside the times they give. */
  when: string;
  /** The rest of the message: what each run is asked. */
  instruction: string;
}

/** A schedule phrase that could not be read into a cron pattern: said to the person rather than run as a task. */
export interface ScheduleProblem {
  problem: string;
}

const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const DAY = '(?:sun|mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?)(?:day)?s?';
const TIME = String.raw`(?:\d{1,2}(?::\d{2}){0,2}\s*(?:[ap]\.?m\.?)?|noon|midnight)`;
const UNIT = '(?:second|sec|minute|min|hour|hr)s?';
const PERIOD = [
  String.raw`every\s+month\s+on\s+the\s+\d{1,2}(?:st|nd|rd|th)?`,
  String.raw`every\s+(?:\d{1,3}\s+)?${UNIT}`,
  'hourly|daily|weekly|monthly',
  String.raw`every\s+(?:day|weekday|week|month|morning|evening)`,
  String.raw`(?:every|on)\s+weekdays`,
  String.raw`every\s+${DAY}(?:\s*(?:,|and|&|,\s*and)\s*${DAY})*`,
  String.raw`on\s+${DAY}s(?:\s*(?:,|and|&|,\s*and)\s*${DAY})*`,
  String.raw`on\s+the\s+\d{1,2}(?:st|nd|rd|th)?\s+of\s+every\s+month`,
].join('|');
const CRON = String.raw`(?:on\s+|with\s+)?cron\s*[\`"'](?<cron>[^\`"'\n]{1,100})[\`"']`;
/** "[schedule:] [at TIME] PERIOD [at TIME][,:;] instruction" or "cron `pattern`: instruction", at the start of the message. */
const PHRASE = new RegExp(
  String.raw`^\s*(?:<@\w+>\s*|@wrench\b\s*)?(?:schedule\s*:?\s*)?(?:(?:at\s+(?<timeBefore>${TIME})\s*,?\s+)?(?<period>${PERIOD})(?:\s*,?\s*at\s+(?<timeAfter>${TIME}))?|${CRON})\s*(?:[,:;.\-–—]\s*|\s+)(?<rest>[\s\S]+)$`,
  'i',
);

/**
 * Reads "every Monday at 9:00, update the dependencies" as a schedule (cron `0 9 * * 1`) and its instruction, by rules:
 * only at the start of a message, so "every function in src/ needs a test" stays a task. Undefined when it is not one; a
 * problem when it looks like one whose time cannot be read ("every Monday at 25:00").
 */
export function readSchedule(text: string): ScheduleRequest | ScheduleProblem | undefined {
  const match = PHRASE.exec(text);
  const groups = match?.groups;
  if (!match || !groups) return undefined;
  const instruction = (groups.rest ?? '').trim();
  if (!instruction) return undefined;
  const when = match[0]
    .slice(0, match[0].length - (groups.rest ?? '').length)
    .replace(/[\s,:;.\-–—]+$/, '')
    .replace(/^\s*(?:<@\w+>\s*|@wrench\b\s*)?(?:schedule\s*:?\s*)?/i, '');
  if (groups.cron !== undefined) {
    const cron = groups.cron.trim();
    const problem = cronProblem(cron);
    return problem ? { problem: `the cron pattern \`${cron}\` is not valid: ${problem}` } : { cron, when, instruction };
  }
  const time = groups.timeBefore ?? groups.timeAfter;
  const clock = time === undefined ? { hour: 9, minute: 0, second: 0 } : clockOf(time);
  if (!clock) return { problem: `"${time}" is not a time of day (write 9:00, 17:30 or 5pm)` };
  const cron = cronOf((groups.period ?? '').toLowerCase().replace(/\s+/g, ' '), clock, time !== undefined);
  if (typeof cron !== 'string') return cron;
  return { cron, when, instruction };
}

export const isScheduleProblem = (value: ScheduleRequest | ScheduleProblem | undefined): value is ScheduleProblem => !!value && 'problem' in value;

interface Clock {
  hour: number;
  minute: number;
  second: number;
}

function clockOf(text: string): Clock | undefined {
  const word = text.trim().toLowerCase();
  if (word === 'noon') return { hour: 12, minute: 0, second: 0 };
  if (word === 'midnight') return { hour: 0, minute: 0, second: 0 };
  const match = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])?/.exec(word);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const second = Number(match[3] ?? 0);
  if (match[4]) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (match[4] === 'p' ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second } : undefined;
}

/** The cron pattern of a period (lower case, single spaces) at a time of day. */
function cronOf(period: string, clock: Clock, timeGiven: boolean): string | ScheduleProblem {
  const at = (rest: string) => (clock.second ? `${clock.second} ${clock.minute} ${clock.hour} ${rest}` : `${clock.minute} ${clock.hour} ${rest}`);
  const interval = /^every (?:(\d{1,3}) )?(second|sec|minute|min|hour|hr)s?$/.exec(period);
  if (interval || period === 'hourly') {
    if (timeGiven) return { problem: `"${period}" runs all day: it takes no time of day` };
    const count = Number(interval?.[1] ?? 1);
    const unit = interval?.[2]?.[0] ?? 'h';
    const most = unit === 'h' ? 23 : 59;
    if (count < 1 || count > most) return { problem: `"${period}" is not an interval Wrench can schedule (1 to ${most})` };
    const step = count === 1 ? '*' : `*/${count}`;
    if (unit === 's') return `${step} * * * * *`;
    if (unit === 'm') return `${step} * * * *`;
    return `0 ${step} * * *`;
  }
  if (period === 'daily' || period === 'every day') return at('* * *');
  if (period === 'every morning') return timeGiven ? at('* * *') : '0 9 * * *';
  if (period === 'every evening') return timeGiven ? at('* * *') : '0 18 * * *';
  if (period === 'every weekday' || period.endsWith('weekdays')) return at('* * 1-5');
  if (period === 'weekly' || period === 'every week') return at('* * 1');
  if (period === 'monthly' || period === 'every month') return at('1 * *');
  const monthDay = /(\d{1,2})(?:st|nd|rd|th)?/.exec(period);
  if (period.includes('month') && monthDay) {
    const day = Number(monthDay[1]);
    return day >= 1 && day <= 31 ? at(`${day} * *`) : { problem: `the ${day}th is not a day of the month` };
  }
  const days = [...period.matchAll(new RegExp(DAY, 'gi'))].map((m) => DAYS[m[0].slice(0, 3).toLowerCase()]);
  const unique = [...new Set(days.filter((d): d is number => d !== undefined))].sort();
  return unique.length ? at(`* * ${unique.join(',')}`) : { problem: `"${period}" is not a period Wrench can schedule` };
}
