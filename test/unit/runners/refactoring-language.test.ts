import { describe, expect, it } from 'vitest';
import type { StepContext } from '../../../runners/category-steps/step-types.js';
import { refactoringSteps } from '../../../runners/category-steps/refactoring-steps.js';
import type { VerificationOutcome } from '../../../runners/verify-change.js';

/** A refactoring whose full suite passed on the base commit and fails after the change (no regression round). */
const draftAfterChange = async (job: Partial<StepContext['job']>, report?: unknown) => {
  const ctx = {
    job: { instruction: 'Refactor src/orders.js', origin: { type: 'slack' }, ...job },
    verifier: { baselineRun: { test: { command: 'npm test', passed: true } } },
  } as unknown as StepContext;
  const verification = { after: { test: { command: 'npm test', passed: false } }, regressed: false } as unknown as VerificationOutcome;
  return refactoringSteps(ctx).after?.({ verification, report: report as never });
};

describe("a refactoring's draft reason in the thread's language", () => {
  it('gives the German and Japanese reason for the thread, the English one for the pull request', async () => {
    const de = await draftAfterChange({ language: 'de' });
    expect(de?.draftReason).toBe('A refactoring must leave the full suite passing, and it fails after this change.');
    expect(de?.threadDraftReason).toBe('Ein Refactoring muss die ganze Testsuite bestehen lassen, und sie schlägt nach dieser Änderung fehl.');
    expect((await draftAfterChange({ language: 'ja' }))?.threadDraftReason).toBe(
      'リファクタリング後もテストスイート全体が成功している必要がありますが、この変更の後で失敗しています。',
    );
  });

  it('has no thread reason in English, or for a run asked from the terminal', async () => {
    expect((await draftAfterChange({ language: 'en' }))?.threadDraftReason).toBeUndefined();
    expect((await draftAfterChange({ language: 'de', origin: { type: 'cli' } } as Partial<StepContext['job']>))?.threadDraftReason).toBeUndefined();
  });

  it("gives its sections in the thread's language beside the English ones, the paths and the command as they are", async () => {
    const report = {
      summary: 'moved',
      verification: 'ran',
      filesChanged: [],
      openQuestions: [],
      moved: [{ what: 'the tax helper', from: 'src/orders.js', to: 'src/tax.js' }],
      renamed: [{ kind: 'function', from: 'calcTax', to: 'computeTax' }],
    };
    const de = await draftAfterChange({ language: 'de' }, report);
    expect(de?.sections?.map((s) => [s.title, s.body])).toEqual([
      ['Moved and renamed', '- Moved the tax helper: `src/orders.js` → `src/tax.js`\n- Renamed function `calcTax` → `computeTax`'],
      ['Full suite', '`npm test` passes on the base commit and fails after the refactoring.'],
    ]);
    expect(de?.sections?.map((s) => s.inThread)).toEqual([
      {
        title: 'Verschoben und umbenannt',
        body: '- the tax helper verschoben: `src/orders.js` → `src/tax.js`\n- function `calcTax` umbenannt in `computeTax`',
      },
      { title: 'Ganze Testsuite', body: 'Auf dem Basis-Commit besteht `npm test`, nach dem Refactoring schlägt es fehl.' },
    ]);
    const ja = await draftAfterChange({ language: 'ja' }, report);
    expect(ja?.sections?.[1]?.inThread).toEqual({
      title: 'テストスイート全体',
      body: '`npm test` はベースコミットで成功し、リファクタリング後は失敗します。',
    });
    expect((await draftAfterChange({ language: 'en' }, report))?.sections?.every((s) => s.inThread === undefined)).toBe(true);
  });
});
