import { readForeignPhrase } from './schedule-languages.js';
import { type ScheduleReason, schedulesEn } from './schedule-strings.js';
import { cronProblem } from './schedule-times.js';

/** A request read as recurring work: when (a cron pattern and its words) and what (the instruction each run gets). */
export interface ScheduleRequest {
  cron: string;
  /** The words that said when, as written: shown on the card beside the times they give. */
  when: string;
  /** The rest of the message: what each run is asked. */
  instruction: string;
  /** The language the words that said when are in (en, de, fr, es, pt, ja, zh). */
  language?: string;
}

/**
 * A schedule phrase that could not be read into a cron pattern: said to the person (in the phrase's language, from
 * `reason`) rather than run as a task. `problem` is the English words, for the terminal and the log.
 */
export interface ScheduleProblem {
  problem: string;
  reason: ScheduleReason;
  language?: string;
}

const problemOf = (reason: ScheduleReason, language = 'en'): ScheduleProblem => ({ problem: schedulesEn.problem(reason), reason, language });

const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const DAY = '(?:sun|mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?)(?:day)?s?';
const TIME = String.raw`(?:\d{1,2}(?::\d{2}){0,2}(?:\s*[ap]\.?m\.?)?|noon|midnight)`;
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
/**
 * "[schedule:] [at TIME] PERIOD [at TIME][,:;] instruction" or "cron `pattern`: instruction", at the start of the message.
 * A time the rules cannot read ("on Mondays at nine, …") leaves the whole message to the model reader, rather than
 * read "at nine, …" as the instruction.
 */
const PHRASE = new RegExp(
  String.raw`^\s*(?:<@\w+>\s*|@wrench\b\s*)?(?:schedule\s*:?\s*)?(?:(?:at\s+(?<timeBefore>${TIME})(?:\s*,)?\s+)?(?<period>${PERIOD})(?:\s*(?:,\s*)?at\s+(?<timeAfter>${TIME}))?(?!\s*(?:,\s*)?at\s)|${CRON})\s*(?:[,:;.\-–—]\s*|\s+)(?<rest>[\s\S]+)$`,
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
  if (!match || !groups) return readForeignSchedule(text);
  const instruction = (groups.rest ?? '').trim();
  if (!instruction) return undefined;
  const when = match[0]
    .slice(0, match[0].length - (groups.rest ?? '').length)
    .replace(/[\s,:;.\-–—]+$/, '')
    .replace(/^\s*(?:<@\w+>\s*|@wrench\b\s*)?(?:schedule\s*:?\s*)?/i, '');
  if (groups.cron !== undefined) {
    const cron = groups.cron.trim();
    const problem = cronProblem(cron);
    return problem ? problemOf({ kind: 'cron', cron, detail: problem }) : { cron, when, instruction, language: 'en' };
  }
  const time = groups.timeBefore ?? groups.timeAfter;
  const clock = time === undefined ? { hour: 9, minute: 0, second: 0 } : clockOf(time);
  if (!clock) return problemOf({ kind: 'time', time: time ?? '' });
  const cron = cronOf((groups.period ?? '').toLowerCase().replace(/\s+/g, ' '), when, clock, time !== undefined);
  if (typeof cron !== 'string') return problemOf(cron);
  return { cron, when, instruction, language: 'en' };
}

/** The common phrases of Wrench's other languages (src/schedules/schedule-languages.ts), made into a cron the same way. */
function readForeignSchedule(text: string): ScheduleRequest | ScheduleProblem | undefined {
  const phrase = readForeignPhrase(text);
  if (!phrase) return undefined;
  const { language, when, rest: instruction } = phrase;
  const clock = phrase.time === undefined ? { hour: 9, minute: 0, second: 0 } : phrase.clock === undefined ? undefined : clockOf(phrase.clock);
  if (!clock) return problemOf({ kind: 'time', time: phrase.time ?? '' }, language);
  const cron = cronOf(phrase.period, when, clock, phrase.time !== undefined);
  if (typeof cron !== 'string') return problemOf(cron, language);
  return { cron, when, instruction, language };
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

/** The cron pattern of a period (lower case, single spaces; `when` is how it was written) at a time of day. */
function cronOf(period: string, when: string, clock: Clock, timeGiven: boolean): string | ScheduleReason {
  const at = (rest: string) => (clock.second ? `${clock.second} ${clock.minute} ${clock.hour} ${rest}` : `${clock.minute} ${clock.hour} ${rest}`);
  const interval = /^every (?:(\d{1,3}) )?(second|sec|minute|min|hour|hr)s?$/.exec(period);
  if (interval || period === 'hourly') {
    if (timeGiven) return { kind: 'allDay', when };
    const count = Number(interval?.[1] ?? 1);
    const unit = interval?.[2]?.[0] ?? 'h';
    const most = unit === 'h' ? 23 : 59;
    if (count < 1 || count > most) return { kind: 'interval', when, most };
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
    return day >= 1 && day <= 31 ? at(`${day} * *`) : { kind: 'monthDay', day };
  }
  const days = [...period.matchAll(new RegExp(DAY, 'gi'))].map((m) => DAYS[m[0].slice(0, 3).toLowerCase()]);
  const unique = [...new Set(days.filter((d): d is number => d !== undefined))].sort();
  return unique.length ? at(`* * ${unique.join(',')}`) : { kind: 'period', when };
}
