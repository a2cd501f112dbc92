import type { RegressionEvidence, RegressionResult } from './regression-check.js';

const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\s+/g, ' ')}\``;

/** The regression-test evidence for the reply: each test failed before the fix and passes after, or why not. */
export function renderRegressionEvidence(evidence: RegressionEvidence): string {
  if (evidence.note === 'no-test') return ':warning: No regression test: the change adds or changes no test file, so nothing shows the bug is fixed.';
  if (evidence.note === 'tests-only') return 'The change only touches tests, so there is no fix to check them against.';
  if (evidence.note === 'no-command') return 'No test command was found, so the regression test could not be run.';
  const lines = evidence.results.map(renderResult);
  lines.push(
    `_Checked by Wrench: the tests ran with the fixed source files (${evidence.sourceFiles.map(code).join(', ')}) put back to the base version, then with the fix._`,
  );
  return lines.join('\n');
}

function renderResult(result: RegressionResult): string {
  const how = ` (${code(result.command)})`;
  switch (result.verdict) {
    case 'proven':
      return `:white_check_mark: Regression test ${code(result.test)} failed before the fix and passes after${how}.`;
    case 'failing-after':
      return `:x: Regression test ${code(result.test)} still fails with the fix${how}.`;
    case 'not-failing-before':
      return `:warning: ${code(result.test)} passes without the fix too, so it does not show the bug${how}.`;
    default:
      return `${code(result.test)} was not run${how}.`;
  }
}
