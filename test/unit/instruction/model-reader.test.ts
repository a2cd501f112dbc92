import Anthropic from '@anthropic-ai/sdk';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../app/cli/classify-command.js';
import { readerTimeLeft, readWithModel } from '../../../src/instruction/model-reader.js';
import { createLogger } from '../../../src/logging/logger.js';
import { scriptedModel, text } from '../../helpers/scripted-model.js';

const logger = createLogger({ level: 'silent' });
const modelReading = (overrides: Record<string, unknown> = {}) =>
  text(
    JSON.stringify({
      category: 'refactoring',
      complexity: 'medium',
      verdict: 'well-formed',
      missing: [],
      summary: 'Move the helper.',
      questions: [],
      elements: { task: 'move it' },
      ...overrides,
    }),
  );

describe('the model reader', () => {
  it('reads with the model: its category, verdict and questions decide, the rules fill in what it did not name', async () => {
    const model = scriptedModel([
      modelReading({
        category: 'bug-fixing',
        verdict: 'ill-formed',
        missing: ['observed-problem'],
        questions: [{ element: 'observed-problem', question: '¿Qué error aparece?' }],
      }),
    ]);
    const { reading, usage } = await readWithModel('fix the login in src/auth.ts', ['add a login page'], {
      client: model.client,
      model: 'claude-haiku-5-5',
      timeoutMs: 1000,
      logger,
    });
    expect(reading).toMatchObject({
      category: 'bug-fixing',
      verdict: 'ill-formed',
      missing: ['observed-problem'],
      readBy: 'model',
      questions: [{ question: '¿Qué error aparece?' }],
    });
    expect(reading.elements.location).toEqual(['src/auth.ts']); // from the rules
    expect(usage).toEqual({ inputTokens: 100, outputTokens: 20 });
    const request = model.requests[0]!;
    expect(request.model).toBe('claude-haiku-5-5');
    expect(JSON.stringify(request.messages)).toContain('add a login page'); // the thread's earlier messages
    expect(request.tool_choice).toBeUndefined(); // never a forced tool: structured output instead
    expect((request as { output_config?: { format?: { type: string } } }).output_config?.format?.type).toBe('json_schema');
  });

  it('falls back to the rules on an API error, an invalid answer, or when turned off', async () => {
    const failing = scriptedModel([new Anthropic.InternalServerError(500, { type: 'error' }, 'boom', new Headers())]);
    const failed = await readWithModel('add tests for src/a.ts', [], { client: failing.client, model: 'm', timeoutMs: 1000, logger });
    expect(failed.reading).toMatchObject({ category: 'testing', readBy: 'rules' });
    expect(failed.fallback).toBe('answered with an error (HTTP 500)');
    const nonsense = scriptedModel([modelReading({ category: 'astrology' })]);
    expect((await readWithModel('add tests for src/a.ts', [], { client: nonsense.client, model: 'm', timeoutMs: 1000, logger })).reading.readBy).toBe('rules');
    const off = scriptedModel([]);
    expect((await readWithModel('add tests for src/a.ts', [], { client: off.client, model: 'none', timeoutMs: 1000, logger })).reading.readBy).toBe('rules');
    expect(off.calls).toBe(0);
  });
});

describe('a schedule the model reader recognises', () => {
  const read = async (instruction: string, schedule: Record<string, unknown>) => {
    const model = scriptedModel([modelReading({ category: 'feature', schedule })]);
    const outcome = await readWithModel(instruction, [], { client: model.client, model: 'claude-haiku-5-5', timeoutMs: 1000, logger });
    return { ...outcome, request: model.requests[0] };
  };
  const text = 'each weekday morning, could you run the link checker over docs/?';

  it('is taken when its cron is one cron-parser reads and its words are the message’s; the request asks for it', async () => {
    const { reading, scheduleRefused, request } = await read(text, {
      cron: '0 9 * * 1-5',
      when: 'each weekday morning',
      instruction: 'run the link checker over docs/',
    });
    expect(reading.schedule).toEqual({ cron: '0 9 * * 1-5', when: 'each weekday morning', instruction: 'run the link checker over docs/' });
    expect(reading.readBy).toBe('model');
    expect(scheduleRefused).toBeUndefined();
    const format = (request as { output_config?: { format?: { schema?: { properties?: Record<string, unknown> } } } }).output_config?.format;
    expect(Object.keys(format?.schema?.properties ?? {})).toContain('schedule');
    expect(String(request?.system)).toContain('schedule: only when the message asks for recurring work');
  });

  it('is refused, the message read as a task, when the cron is not valid or the words are not the message’s', async () => {
    const badCron = await read(text, { cron: '0 9 * * Funday', when: 'each weekday morning', instruction: 'run the link checker' });
    expect(badCron.reading.schedule).toBeUndefined();
    expect(badCron.reading).toMatchObject({ readBy: 'model', category: 'feature' });
    expect(badCron.scheduleRefused).toMatch(/^its cron pattern `0 9 \* \* Funday` is not valid: /);
    const tooFew = await read(text, { cron: '0 9 * *', when: 'each weekday morning', instruction: 'run the link checker' });
    expect(tooFew.scheduleRefused).toContain('5 fields');
    const invented = await read(text, { cron: '* * * * *', when: 'every minute', instruction: 'run the link checker' });
    expect(invented.reading.schedule).toBeUndefined();
    expect(invented.scheduleRefused).toBe('"every minute" is not in the message');
    const empty = await read(text, { cron: '0 9 * * 1-5', when: 'each weekday morning', instruction: '   ' });
    expect(empty.scheduleRefused).toBe('it has no instruction');
  });
});

describe("the reader's time limit under load", () => {
  it('what is left after a slow repository view is a positive whole number of ms, never more than the limit', () => {
    expect(readerTimeLeft(4000, 1000.4)).toBe(3000);
    // The view overran the whole limit (a loaded event loop): the model still gets a tenth of it, not a negative timeout.
    expect(readerTimeLeft(4000, 5250)).toBe(400);
    expect(readerTimeLeft(4000, 4000)).toBe(400);
    expect(readerTimeLeft(100, 10_000)).toBe(10);
    // A clock that stepped back never gives more than the limit.
    expect(readerTimeLeft(4000, -300)).toBe(4000);
    for (const elapsed of [0, 1, 3999.9, 4000, 4001, 1e9, Number.NaN]) {
      const left = readerTimeLeft(4000, elapsed);
      expect(Number.isInteger(left) && left > 0 && left <= 4000, `${elapsed} ms elapsed gave ${left}`).toBe(true);
    }
  });

  it('a negative or fractional time limit still asks the model (the SDK refuses `timeout must be a positive integer`)', async () => {
    let asked = 0;
    const answer = JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: modelReading({ category: 'testing' }).content,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    // The real SDK client (it validates the timeout before any request), answering from an in-process fetch.
    const client = new Anthropic({
      apiKey: 'test',
      baseURL: 'http://127.0.0.1:9',
      maxRetries: 0,
      fetch: async () => {
        asked++;
        return new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    for (const timeoutMs of [-250, 0, 12.5]) {
      const outcome = await readWithModel('add tests for src/a.ts', [], { client, model: 'm', timeoutMs, logger });
      expect(outcome.fallback ?? '').not.toMatch(/must be/);
    }
    expect(asked).toBe(3);
  });
});

describe('wrench classify with a model configured', () => {
  const run = async (args: string[], client: Anthropic) => {
    let stdout = '';
    const code = await classifyCommand(
      args,
      { stdin: Readable.from([]), stdout: (s) => (stdout += s), stderr: () => {} },
      { client, model: 'claude-haiku-5-5', timeoutMs: 1000, logger },
    );
    return { code, stdout };
  };

  it("prints the model's reading with exactly the five keys; --rules reads with the rules and asks no model", async () => {
    const model = scriptedModel([modelReading()]);
    const withModel = await run(['--json', 'tidy up the date helpers'], model.client);
    expect(withModel.code).toBe(0);
    const printed = JSON.parse(withModel.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(['category', 'complexity', 'verdict', 'missing', 'elements']);
    expect(printed).toMatchObject({ category: 'refactoring', complexity: 'medium' });

    const scheduled = scriptedModel([modelReading({ schedule: { cron: '0 9 * * 1', when: 'on Mondays at nine', instruction: 'tidy up the date helpers' } })]);
    const text = 'on Mondays at nine, could you tidy up the date helpers?';
    const readSchedule = JSON.parse((await run(['--json', text], scheduled.client)).stdout) as Record<string, unknown>;
    expect(readSchedule.schedule).toEqual({ cron: '0 9 * * 1', when: 'on Mondays at nine', instruction: 'tidy up the date helpers', readBy: 'model' });
    const readable = await run(
      [text],
      scriptedModel([modelReading({ schedule: { cron: '0 9 * * 1', when: 'on Mondays at nine', instruction: 'tidy up the date helpers' } })]).client,
    );
    expect(readable.stdout.split('\n')[0]).toBe(
      `Schedule: on Mondays at nine (cron 0 9 * * 1, in the requester's Slack time zone), read by the model; each run is asked "tidy up the date helpers", read below.`,
    );
    const refused = await run(
      ['--json', text],
      scriptedModel([modelReading({ schedule: { cron: '0 61 * * 1', when: 'on Mondays at nine', instruction: 'x' } })]).client,
    );
    expect(Object.keys(JSON.parse(refused.stdout) as object)).not.toContain('schedule');

    const unused = scriptedModel([]);
    const rules = await run(['--json', '--rules', 'add tests for src/a.ts'], unused.client);
    expect(JSON.parse(rules.stdout)).toMatchObject({ category: 'testing' });
    expect(unused.calls).toBe(0);
  });
});

describe("the rules' sure holds and the model", () => {
  const read = async (instruction: string, answer: Record<string, unknown>) => {
    const model = scriptedModel([modelReading(answer)]);
    return (await readWithModel(instruction, [], { client: model.client, model: 'claude-haiku-5-5', timeoutMs: 1000, logger })).reading;
  };

  it('a whole rewrite, an empty ask and a goal of taste stay held back though the model reads them as well-formed', async () => {
    expect(await read('Rewrite the whole backend in Rust.', { category: 'refactoring' })).toMatchObject({
      verdict: 'unrealistic',
      missing: ['scope'],
      hold: 'whole-rewrite',
      readBy: 'model',
      summary: 'Move the helper.',
    });
    expect(await read('tests', { category: 'testing' })).toMatchObject({ verdict: 'ill-formed', missing: ['target', 'location'], hold: 'empty' });
    const taste = await read('make the code more readable', { questions: [{ element: 'target', question: 'unused' }] });
    expect(taste).toMatchObject({ verdict: 'ill-formed', hold: 'subjective', questions: undefined });
  });

  it('otherwise the stricter verdict wins: a stricter model, or the model where the rules are unsure', async () => {
    expect((await read('make it better', { verdict: 'unrealistic', missing: ['scope'] })).verdict).toBe('unrealistic');
    const sureAndAsked = await read('tests', { verdict: 'ill-formed', missing: ['target'], questions: [{ element: 'target', question: 'Welche Tests?' }] });
    expect(sureAndAsked).toMatchObject({ verdict: 'ill-formed', missing: ['target'], questions: [{ question: 'Welche Tests?' }] });
    // The rules alone would ask where; they are not sure of it, so the model's reading stands.
    expect((await read('clicking run twice fast causes crash', { category: 'bug-fixing' })).verdict).toBe('well-formed');
  });
});
