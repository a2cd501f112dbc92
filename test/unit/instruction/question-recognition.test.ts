import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../app/cli/classify-command.js';
import { readWithModel } from '../../../src/instruction/model-reader.js';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { createLogger } from '../../../src/logging/logger.js';
import { scriptedModel, text } from '../../helpers/scripted-model.js';

const QUESTIONS = [
  'why does checkout retry the payment three times?',
  'where is the rate limit for /search configured?',
  'how does the session cache work?',
  'what calls formatBytes?',
  'which module handles the GitHub webhooks?',
  'hey, quick question: why is the build slow?',
  'does the CSV parser handle a byte order mark?',
  'can you explain how retries work in src/pay.ts?',
  'could you tell me where we set the session timeout?',
  'how many retries does the payment client make?',
  'where do we compute the average cart value?',
  'walk me through what happens when a webhook arrives',
  'I’m curious why the cache key includes the locale',
  // Read by the rules in other languages: an opening question word, nothing asked to be done.
  'Warum wiederholt der Checkout die Zahlung dreimal?',
  '¿Dónde se configura el límite de /search?',
  'なぜ決済が3回リトライされるのですか？',
  '为什么结账会重试三次支付？',
];

const CHANGES_AS_QUESTIONS: Array<[string, string | undefined]> = [
  ['can you fix the typo in the README?', 'bug-fixing'],
  ['could you add a test for formatBytes in src/lib/format.ts?', 'testing'],
  ['can we get a dark mode toggle in settings?', 'feature'],
  ['would you refactor src/cart.ts into smaller functions?', 'refactoring'],
  ['why don’t you just retry the request on a 503?', undefined],
  ['how did the new onboarding affect activation? compare signups before/after Oct 1', undefined],
  ['Kannst du den Tippfehler in der README beheben?', 'bug-fixing'],
];

/** Question-shaped, but clearly another kind of work that answers itself. */
const OTHER_WORK: Array<[string, string]> = [
  ['what do you think of PR #4?', 'code-review'],
  ['can you check if my code is ok', 'code-review'],
  ['why is prod down since 14:05 UTC? error rate at 40%', 'incident-triage'],
  ['why is the build failing?', 'bug-fixing'],
  ["what's the average order value by country in data/orders.csv?", 'data-analysis'],
  ['How many orders were refunded in September, broken down by reason?', 'data-analysis'],
];

describe('a question about the code, read by the rules', () => {
  it.each(QUESTIONS)('reads %j as a question', (instruction) => {
    const reading = readInstruction(`<@U0BOT> ${instruction}`);
    expect(reading.category).toBe('question');
    expect(reading.verdict).toBe('well-formed');
  });

  it.each(CHANGES_AS_QUESTIONS)('reads %j, a change phrased as a question, as a change (%s)', (instruction, category) => {
    const read = readInstruction(`<@U0BOT> ${instruction}`).category;
    expect(read).not.toBe('question');
    if (category) expect(read).toBe(category);
  });

  it.each(OTHER_WORK)('reads %j as %s, not as a question', (instruction, category) => {
    expect(readInstruction(`<@U0BOT> ${instruction}`).category).toBe(category);
  });

  it('reads the follow-ups that turn an answer into work as changes', () => {
    expect(readInstruction('ok, fix it').category).toBe('bug-fixing');
    expect(readInstruction('add a test for that').category).toBe('testing');
    expect(readInstruction('ok, make it retry only twice').category).not.toBe('question');
  });

  it('`wrench classify` shows it', async () => {
    const stdin = Readable.from([]) as Readable & { isTTY?: boolean };
    stdin.isTTY = false;
    let stdout = '';
    const code = await classifyCommand(['--json', 'where is the rate limit for /search configured?'], {
      stdin,
      stdout: (s) => (stdout += s),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ category: 'question', complexity: 'simple', verdict: 'well-formed' });
  });
});

describe('a question about the code, read by the model', () => {
  it('takes the model’s `question` and tells it what a question is, and that a change phrased as one is a change', async () => {
    const model = scriptedModel([
      text(
        JSON.stringify({
          category: 'question',
          complexity: 'simple',
          verdict: 'well-formed',
          missing: [],
          summary: 'Where the /search rate limit is configured.',
          questions: [],
          elements: {},
        }),
      ),
    ]);
    const logger = createLogger({ level: 'silent' });
    const { reading } = await readWithModel('wo ist das Rate-Limit für /search konfiguriert?', [], {
      client: model.client,
      model: 'm',
      timeoutMs: 1000,
      logger,
    });
    expect(reading).toMatchObject({ category: 'question', readBy: 'model' });
    const system = String(model.requests[0]!.system);
    expect(system).toContain('question: the requester wants to know something about the code');
    expect(system).toContain('can you fix the typo in the README?');
    expect(JSON.stringify(model.requests[0]!)).toContain('"question"'); // in the structured output's enum
  });
});
