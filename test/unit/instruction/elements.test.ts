import { describe, expect, it } from 'vitest';
import { readInstruction } from '../../../src/instruction/read-instruction.js';

const elementsOf = (text: string) => readInstruction(text).elements;

describe('labelled sections', () => {
  it('reads Task, Background, numbered Requirements, Constraints and Success criteria', () => {
    const elements = elementsOf(
      '<@U0BOT> *Task:* add a password-reset endpoint\n*Background:* support gets ~40 reset tickets a week.\n' +
        '*Requirements:*\n1. POST /auth/reset-request sends an email\n2. tokens expire after 30 minutes\n' +
        'Constraints: no new dependencies; keep the public API\nSuccess criteria: tests pass, docs/auth.md updated.',
    );
    expect(elements.task).toBe('add a password-reset endpoint');
    expect(elements.background).toBe('support gets ~40 reset tickets a week.');
    expect(elements.requirements).toEqual(['POST /auth/reset-request sends an email', 'tokens expire after 30 minutes']);
    expect(elements.constraints).toEqual(['no new dependencies', 'keep the public API']);
    expect(elements.successCriteria).toEqual(['tests pass, docs/auth.md updated']);
  });

  it('reads bulleted lists under a label that stands alone on its line', () => {
    const elements = elementsOf('Task: tidy the importer\nRequirements:\n• one\n- two\n* three\n\nThanks!');
    expect(elements.requirements).toEqual(['one', 'two', 'three']);
  });

  it('reads an observed problem with expected, actual and steps to reproduce', () => {
    const elements = elementsOf(
      '<@U0BOT> Observed problem: CSV import drops rows with quoted commas.\nExpected: quoted fields stay whole. ' +
        'Actual: the row is rejected.\nSteps to reproduce:\n1. upload fixtures/quoted.csv\n2. open the import log\n\nLocation: src/import/csv.ts, `parseLine`',
    );
    expect(elements.observedProblem).toMatchObject({
      description: 'CSV import drops rows with quoted commas',
      expected: 'quoted fields stay whole',
      actual: 'the row is rejected',
      reproduction: ['upload fixtures/quoted.csv', 'open the import log'],
    });
    expect(elements.location).toEqual(expect.arrayContaining(['src/import/csv.ts', 'parseLine', 'fixtures/quoted.csv']));
  });

  it('keeps a label inside a line to its own sentence', () => {
    const elements = elementsOf('Fix it. Expected: null. Actual: RangeError. Started after PR #311. Add a regression test.');
    expect(elements.observedProblem?.expected).toBe('null');
    expect(elements.observedProblem?.actual).toBe('RangeError');
    expect(elements.observedProblem?.suspectCommits).toEqual(['PR #311']);
    expect(elements.requirements).toContain('Add a regression test');
  });

  it('reads Focus and Severity labels', () => {
    const elements = elementsOf(
      'review PR #5\nFocus: SQL injection, auth checks and logging\nSeverity: Critical/Major/Minor\n' +
        'Output format: markdown table\nExamples:\n- `GET /admin?id=1 OR 1=1`\n- missing `requireAdmin`',
    );
    expect(elements.focusAreas).toEqual(['SQL injection', 'auth checks', 'logging']);
    expect(elements.severityLabels).toEqual(['Critical', 'Major', 'Minor']);
    // Output format and examples are the model reader's to name; their sections stay out of the requirements.
    expect(elements.requirements).toBeUndefined();
  });

  it('recognises bold Slack labels', () => {
    const elements = elementsOf('*Task:* add a `--json` flag\n*Location:* src/cli/status.ts');
    expect(elements.task).toBe('add a `--json` flag');
    expect(elements.location).toEqual(['src/cli/status.ts']);
  });
});

describe('unlabelled cues', () => {
  it('finds file paths, path:line, "line N", directories and functions', () => {
    const elements = elementsOf(
      'the crash is in src/events/serialize.ts:19 and also line 88 of lib/util.js; `formatBytes()` and the `parseLine` helper; files under src/api/handlers/',
    );
    expect(elements.location).toEqual(
      expect.arrayContaining(['src/events/serialize.ts:19', 'lib/util.js:88', 'src/api/handlers/', 'formatBytes', 'parseLine']),
    );
    expect(elements.references?.functions).toEqual(['formatBytes', 'parseLine']);
  });

  it('does not take flags, commands or fields for functions', () => {
    const elements = elementsOf('add a `--json` flag to the `status` command; run `npm test`; events without `endsAt`');
    expect(elements.references?.functions).toBeUndefined();
  });

  it('reads stack traces in code blocks as the error, with their frames as locations', () => {
    const elements = elementsOf(
      'Fix this:\n```\nRangeError: Invalid time value\n    at Date.toISOString (<anonymous>)\n    at serializeEvent (src/events/serialize.ts:19:31)\n```',
    );
    expect(elements.observedProblem?.error).toContain('RangeError: Invalid time value');
    expect(elements.location).toEqual(['src/events/serialize.ts:19:31', 'serializeEvent']);
  });

  it('reads Python tracebacks', () => {
    const elements = elementsOf('```Traceback (most recent call last):\n  File "jobs/export.py", line 88, in run\n    go()\nKeyError: \'id\'```');
    expect(elements.location).toEqual(expect.arrayContaining(['jobs/export.py:88', 'run']));
    expect(elements.observedProblem?.error).toContain("KeyError: 'id'");
  });

  it('reads an error message written in prose', () => {
    expect(elementsOf("it fails with TypeError: Cannot read properties of undefined (reading 'id') in the cart").observedProblem?.error).toBe(
      "TypeError: Cannot read properties of undefined (reading 'id') in the cart",
    );
  });

  it('finds commit SHAs, PR numbers, GitHub PR URLs, repositories and URLs', () => {
    const elements = elementsOf(
      'look at 9f3c2ab1 and PR #91 in acme/api, also <https://github.com/acme/web/pull/1207|#1207> and acme/mobile#58; docs at https://example.org/guide.',
    );
    expect(elements.references).toEqual({
      prNumbers: [91, 1207, 58],
      commits: ['9f3c2ab1'],
      urls: ['https://github.com/acme/web/pull/1207', 'https://example.org/guide'],
      repositories: ['acme/api', 'acme/mobile', 'acme/web'],
    });
  });

  it('does not read severity sets, rates or word pairs as paths', () => {
    const elements = elementsOf('severity Critical/High/Medium/Low, at most 1 request/second, read/write and/or input/output, built on Node.js');
    expect(elements.location).toBeUndefined();
    expect(elements.references?.repositories).toBeUndefined();
  });

  it.each([
    ['At most 1 request/second, retry twice', 'At most 1 request/second'],
    ['keep it to 1 request per second', '1 request per second'],
    ['max 2 req/s please', 'max 2 req/s'],
    ['100 requests/minute per API key', '100 requests/minute per API key'],
    ['be polite: 5 rps', '5 rps'],
    ['throttle to 1 request every 2 seconds', 'throttle to 1 request every 2 seconds'],
    ['wait 500ms between requests', 'wait 500ms between requests'],
  ])('reads the rate limit in "%s"', (text, rateLimit) => {
    expect(elementsOf(`scrape https://example.com, ${text}`).rateLimit).toBe(rateLimit);
  });

  it.each([
    ['severity Critical/Major/Minor', ['Critical', 'Major', 'Minor']],
    ['label them Critical, High, Medium, Low', ['Critical', 'High', 'Medium', 'Low']],
    ['use blocker / major / minor / nit', ['blocker', 'major', 'minor', 'nit']],
  ])('reads the severity labels in "%s"', (text, labels) => {
    expect(elementsOf(`review PR #1, ${text}`).severityLabels).toEqual(labels);
  });

  it('reads focus areas without labels', () => {
    const elements = elementsOf('review PR #12 focusing on error handling and the retry logic. report as a markdown checklist');
    expect(elements.focusAreas).toEqual(['error handling', 'retry logic']);
  });

  it('splits a task that lists its cases after a colon', () => {
    const elements = elementsOf('analyze data/orders.csv: revenue per day, average order value, top 10 products by revenue.');
    expect(elements.task).toBe('analyze data/orders.csv');
    expect(elements.requirements).toEqual(['revenue per day', 'average order value', 'top 10 products by revenue']);
  });

  it('sorts unlabelled sentences into success criteria, constraints, reproduction and suspects', () => {
    const elements = elementsOf(
      'split src/api/handlers.ts into one file per resource. No behaviour change; existing tests must pass. ' +
        'Reproduce with fixtures/big.json. Broke after deploying v2.3.1.',
    );
    expect(elements.constraints).toEqual(['No behaviour change']);
    expect(elements.successCriteria).toEqual(['existing tests must pass']);
    expect(elements.observedProblem?.reproduction).toEqual(['Reproduce with fixtures/big.json']);
    expect(elements.observedProblem?.suspectCommits).toEqual(['v2.3.1']);
  });

  it('reads symptoms and expectations of an unlabelled bug report', () => {
    const elements = elementsOf('`isWeekend()` in src/dates.js returns true for Fridays. It should only be true for Saturday and Sunday. Fix and add a test.');
    expect(elements.observedProblem).toEqual({
      actual: '`isWeekend()` in src/dates.js returns true for Fridays',
      expected: 'It should only be true for Saturday and Sunday',
    });
    expect(elements.requirements).toEqual(['Fix and add a test']);
  });
});

describe('slack markup', () => {
  it('drops the bot mention, resolves links, entities and user mentions', () => {
    const elements = elementsOf('<@U0BOT> ask <@U123|dana> about <https://example.org/spec|the spec> &amp; fix `a &lt; b` in src/x.ts');
    expect(elements.task).toBe('ask @dana about the spec (https://example.org/spec) & fix `a < b` in src/x.ts');
    expect(elements.references?.urls).toEqual(['https://example.org/spec']);
  });

  it('reads emoji shortcodes as words', () => {
    expect(readInstruction('<@U0BOT> :fire: :fire: checkout returning 502s since 11:02 UTC').category).toBe('incident-triage');
  });

  it('omits absent parts instead of leaving them empty', () => {
    expect(elementsOf('<@U0BOT> add payments')).toEqual({ task: 'add payments' });
  });
});
