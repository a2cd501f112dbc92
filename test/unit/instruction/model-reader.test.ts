import Anthropic from '@anthropic-ai/sdk';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../app/cli/classify-command.js';
import { readWithModel } from '../../../src/instruction/model-reader.js';
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
