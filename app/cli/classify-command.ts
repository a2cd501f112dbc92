import Anthropic from '@anthropic-ai/sdk';
import { describeReading } from '../../src/instruction/describe-reading.js';
import { readWithModel } from '../../src/instruction/model-reader.js';
import { readInstruction } from '../../src/instruction/read-instruction.js';
import type { InstructionReading } from '../../src/instruction/instruction-types.js';
import { envSchema, withoutEmptyValues } from '../../src/config/env-options.js';
import { createLogger, type Logger } from '../../src/logging/logger.js';
import { isScheduleProblem, readSchedule, type ScheduleProblem, type ScheduleRequest } from '../../src/schedules/schedule-phrase.js';

export interface ClassifyIo {
  stdin: NodeJS.ReadableStream;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The model reader when one is configured (an Anthropic key and a reader model other than none). */
export interface ClassifyReader {
  client: Anthropic;
  model: string;
  timeoutMs: number;
  logger: Logger;
}

const USAGE = `Usage: wrench classify [--json] [--rules] [TEXT|-]

Prints how Wrench reads an instruction: category, complexity, verdict, missing elements and the recognised parts.
A request for recurring work ("every Monday at 9:00, update the dependencies") prints the schedule understood (its
cron pattern, and whether the rules or the model read it) first, then how each run's instruction is read.
TEXT is the instruction (all remaining arguments, joined by spaces); "-" or no TEXT reads it from stdin.
With ANTHROPIC_API_KEY set, the fast model (WRENCH_READER_MODEL) reads it; when it cannot (unreachable, too slow,
an error), one line on stderr says why and the rules decide.

Options:
  --json      print one JSON object with category, complexity, verdict, missing and elements
  --rules     read with the deterministic rules only
  -h, --help  show this message`;

/** `wrench classify [--json] [TEXT|-]`; returns the exit code (2 for usage errors). */
export async function classifyCommand(args: string[], io: ClassifyIo, reader?: ClassifyReader): Promise<number> {
  let json = false;
  let rulesOnly = false;
  const words: string[] = [];
  let flagsEnded = false;
  for (const arg of args) {
    if (!flagsEnded && arg === '--') flagsEnded = true;
    else if (!flagsEnded && arg === '--json') json = true;
    else if (!flagsEnded && arg === '--rules') rulesOnly = true;
    else if (!flagsEnded && (arg === '--help' || arg === '-h')) {
      io.stdout(USAGE);
      return 0;
    } else if (!flagsEnded && arg.startsWith('-') && arg !== '-') {
      io.stderr(`wrench classify: unknown option "${arg}".\n\n${USAGE}\n`);
      return 2;
    } else words.push(arg);
  }

  const fromStdin = words.length === 0 || (words.length === 1 && words[0] === '-');
  if (fromStdin && words.length === 0 && (io.stdin as { isTTY?: boolean }).isTTY) {
    io.stderr(`wrench classify: no instruction given. Pass it as TEXT, or pipe it in with "-".\n\n${USAGE}\n`);
    return 2;
  }
  const text = fromStdin ? await readAll(io.stdin) : words.join(' ');
  if (text.trim() === '') {
    io.stderr('wrench classify: the instruction is empty. Pass the text to read, e.g. wrench classify "add tests for src/x.ts".\n');
    return 2;
  }

  // A schedule is read by the rules first, as the mention handler does; each run's instruction is then read as any
  // other. When the rules read none, the model reader may recognise one in the whole message, as on the mention path.
  const rules = readSchedule(text);
  let schedule: (ScheduleRequest & { readBy: 'rules' | 'model' }) | ScheduleProblem | undefined =
    rules && !isScheduleProblem(rules) ? { ...rules, readBy: 'rules' } : rules;
  let instruction = schedule && !isScheduleProblem(schedule) ? schedule.instruction : text;
  let reading: InstructionReading = readInstruction(instruction);
  if (reader && !rulesOnly && reader.model !== 'none') {
    const outcome = await readWithModel(instruction, [], reader);
    reading = outcome.reading;
    if (outcome.fallback) io.stderr(`wrench classify: the model ${reader.model} ${outcome.fallback}; the rules decided.\n`);
    if (!schedule && reading.schedule) {
      schedule = { ...reading.schedule, readBy: 'model' };
      instruction = reading.schedule.instruction;
    }
    if (!schedule && outcome.scheduleRefused)
      io.stderr(`wrench classify: the model read a schedule that was refused (${outcome.scheduleRefused}); read as a task.\n`);
  }
  if (json) {
    const { category, complexity, verdict, missing, elements } = reading;
    const printed =
      schedule &&
      (isScheduleProblem(schedule)
        ? { problem: schedule.problem }
        : { cron: schedule.cron, when: schedule.when, instruction: schedule.instruction, readBy: schedule.readBy });
    io.stdout(`${JSON.stringify({ ...(printed ? { schedule: printed } : {}), category, complexity, verdict, missing, elements }, null, 2)}\n`);
  } else {
    const scheduleLine = !schedule
      ? ''
      : isScheduleProblem(schedule)
        ? `Schedule: not understood: ${schedule.problem}\n`
        : `Schedule: ${schedule.when} (cron ${schedule.cron}, in the requester's Slack time zone), read by the ${schedule.readBy}; each run is asked ${
            schedule.readBy === 'rules' ? 'the instruction below' : `"${schedule.instruction}", read below`
          }.\n`;
    io.stdout(`${scheduleLine}${describeReading(reading, instruction)}\n`);
  }
  return 0;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** The model reader from the environment alone (classify needs no config file); undefined without a model key. */
export function readerFromEnv(env: NodeJS.ProcessEnv = process.env): ClassifyReader | undefined {
  const parsed = envSchema
    .pick({ ANTHROPIC_API_KEY: true, ANTHROPIC_BASE_URL: true, WRENCH_READER_MODEL: true, WRENCH_READER_TIMEOUT_MS: true, LOG_LEVEL: true })
    .safeParse(withoutEmptyValues(env));
  if (!parsed.success || !parsed.data.ANTHROPIC_API_KEY || parsed.data.WRENCH_READER_MODEL === 'none') return undefined;
  const { ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, WRENCH_READER_MODEL, WRENCH_READER_TIMEOUT_MS } = parsed.data;
  return {
    client: new Anthropic({ apiKey: ANTHROPIC_API_KEY, baseURL: ANTHROPIC_BASE_URL, maxRetries: 0 }),
    model: WRENCH_READER_MODEL,
    timeoutMs: WRENCH_READER_TIMEOUT_MS,
    // The reader's own log (with the error's stack) only when asked for (LOG_LEVEL=debug or trace): classify says
    // in one line on stderr when the rules decided instead of the model.
    logger: createLogger({ level: ['debug', 'trace'].includes(parsed.data.LOG_LEVEL) ? parsed.data.LOG_LEVEL : 'silent' }),
  };
}
