import { describe, expect, it } from 'vitest';
import { compareVerification } from '../../../src/verification/compare-verification.js';
import { renderVerification } from '../../../src/verification/render-verification.js';
import type { VerificationRun } from '../../../src/verification/verification-types.js';
import { lintOutcome, testOutcome } from './outcomes.js';

const commands = { test: 'npm test', lint: 'npm run lint', sources: [] };
const render = (before: VerificationRun | undefined, after: VerificationRun) => renderVerification(commands, compareVerification(before, after), before, after);

describe('renderVerification', () => {
  it('shows before → after and the fixed tests by name', () => {
    const before = { test: testOutcome({ passed: 10, failed: 1, failedTests: ['formats 1024 as 1 KiB'] }), lint: lintOutcome(true) };
    const after = { test: testOutcome({ passed: 11, failed: 0 }), lint: lintOutcome(true) };
    expect(render(before, after)).toBe(
      [
        'Checks run by Wrench on the base commit and after the change: **improved**.',
        '',
        '- `npm test`: before 10 passed, 1 failed → after 11 passed, 0 failed. Fixed: `formats 1024 as 1 KiB`.',
        '- `npm run lint`: passed before and after.',
      ].join('\n'),
    );
  });

  it('says where the checks came from, what they ran on and what was left out', () => {
    const fromCi = {
      ...commands,
      origin: 'checks from .github/workflows/ci.yml (job test)',
      notes: ['Not passed from .github/workflows/ci.yml (job test): `TOKEN` (secrets or expressions).'],
      environment: { path: [], readOnlyDirs: [], env: {}, key: '', lines: ['Node.js 14.21.3 (from the npm registry, cached), for Node.js 14 (.nvmrc).'] },
    };
    const run = { test: testOutcome({ passed: 4, failed: 0 }) };
    expect(renderVerification(fromCi, compareVerification(run, run), run, run)).toBe(
      [
        'Checks run by Wrench on the base commit and after the change: **same as before**.',
        '',
        '- `npm test`: same as before: 4 passed, 0 failed.',
        '- Checks from .github/workflows/ci.yml (job test).',
        '- Node.js 14.21.3 (from the npm registry, cached), for Node.js 14 (.nvmrc).',
        '- Not passed from .github/workflows/ci.yml (job test): `TOKEN` (secrets or expressions).',
      ].join('\n'),
    );
  });

  it('lists new failures and shows the failing output when regressed', () => {
    const before = { test: testOutcome({ passed: 2, failed: 0 }) };
    const after = { test: testOutcome({ passed: 1, failed: 1, failedTests: ['formats 1024 as 1 KiB'] }) };
    const text = render(before, after);
    expect(text).toContain('**regressed**');
    expect(text).toContain('- `npm test`: before 2 passed, 0 failed → after 1 passed, 1 failed.');
    expect(text).toContain('- New failures: `formats 1024 as 1 KiB`.');
    expect(text).toContain('Output of `npm test` (end):\n```\nnot ok 1 - formats 1024 as 1 KiB\n# fail 1\n```');
  });

  it('shows lint that broke, with its output', () => {
    const tests = testOutcome({ passed: 2, failed: 0 });
    const text = render({ test: tests, lint: lintOutcome(true) }, { test: tests, lint: lintOutcome(false) });
    expect(text).toContain('- `npm run lint`: passed before → failed after.');
    expect(text).toContain("```\nsrc/a.ts:1:7  error  'x' is assigned a value but never used\n```");
  });

  it('describes runs without counts, timeouts and a missing baseline', () => {
    const timedOut = testOutcome({}, { passed: false, timedOut: true, exitCode: null, durationMs: 600_000 });
    expect(render({ test: testOutcome({}) }, { test: timedOut })).toContain('`npm test`: before passed → after timed out after 10 min.');
    expect(render(undefined, { test: testOutcome({}, { passed: false, exitCode: 2 }) })).toContain(
      '`npm test`: failed (exit code 2) after the change; the base commit was not checked.',
    );
  });

  it('cuts long name lists and keeps backticks from breaking the Markdown', () => {
    const names = Array.from({ length: 13 }, (_, i) => `case \`${i}\``);
    const text = render({ test: testOutcome({ passed: 13, failed: 0 }) }, { test: testOutcome({ failed: 13, failedTests: names }) });
    expect(text).toContain("`case '9'` and 3 more.");
  });

  it('says when no test command was found', () => {
    const none = { sources: [] };
    expect(renderVerification(none, compareVerification(undefined, {}), undefined, {})).toBe(
      'No test command was found (override it under `verification:` in wrench.config.yml).',
    );
    const lintOnly = { lint: lintOutcome(true) };
    const text = renderVerification({ lint: 'npm run lint', sources: [] }, compareVerification(lintOnly, lintOnly), lintOnly, lintOnly);
    expect(text).toContain('- No test command was found');
    expect(text).toContain('- `npm run lint`: passed before and after.');
  });
});
