import { describe, expect, it } from 'vitest';
import { renderRegressionEvidence } from '../../../src/verification/render-regression.js';

describe('renderRegressionEvidence', () => {
  it('says the regression test failed before the fix and passes after', () => {
    const text = renderRegressionEvidence({
      testFiles: ['test/dates.test.js'],
      sourceFiles: ['src/dates.js'],
      results: [{ test: 'friday is not weekend', verdict: 'proven', command: 'node --test test/dates.test.js' }],
    });
    expect(text).toContain('Regression test `friday is not weekend` failed before the fix and passes after (`node --test test/dates.test.js`).');
    expect(text).toContain('`src/dates.js`');
  });

  it('explains tests that do not show the bug, and a fix without a test', () => {
    expect(
      renderRegressionEvidence({
        testFiles: ['t.test.js'],
        sourceFiles: ['a.js'],
        results: [{ test: 't', verdict: 'not-failing-before', command: 'npm test' }],
      }),
    ).toContain('passes without the fix too');
    expect(renderRegressionEvidence({ testFiles: [], sourceFiles: ['a.js'], results: [], note: 'no-test' })).toContain('No regression test');
  });
});
