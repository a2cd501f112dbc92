import type { RegressionEvidence, RegressionResult } from './regression-check.js';
import { regressionEn, type RegressionStrings } from './verification-strings.js';

const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\s+/g, ' ')}\``;

/** The regression-test evidence for the reply: each test failed before the fix and passes after, or why not (in `strings`). */
export function renderRegressionEvidence(evidence: RegressionEvidence, strings: RegressionStrings = regressionEn): string {
  if (evidence.note === 'no-test') return strings.noTest;
  if (evidence.note === 'tests-only') return strings.testsOnly;
  if (evidence.note === 'no-command') return strings.noCommand;
  const lines = evidence.results.map((result) => renderResult(result, strings));
  lines.push(strings.checkedBy(evidence.sourceFiles.map(code).join(', ')));
  return lines.join('\n');
}

function renderResult(result: RegressionResult, strings: RegressionStrings): string {
  const how = ` (${code(result.command)})`;
  const test = code(result.test);
  switch (result.verdict) {
    case 'proven':
      return strings.proven(test, how);
    case 'failing-after':
      return strings.failingAfter(test, how);
    case 'not-failing-before':
      return strings.notFailingBefore(test, how);
    default:
      return strings.notRun(test, how);
  }
}
