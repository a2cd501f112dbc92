import type { CoverageTotal } from './parse-coverage.js';
import { coverageEn, type CoverageStrings } from './verification-strings.js';

export interface CoverageMeasurement {
  command: string;
  /** Undefined when the command failed or printed no total I could read. */
  total?: CoverageTotal;
  passed: boolean;
}

/** "`npm run coverage`: lines 62.5% before → 81.25% after (+18.75 points)." (in `strings`) */
export function renderCoverageChange(before: CoverageMeasurement | undefined, after: CoverageMeasurement, strings: CoverageStrings = coverageEn): string {
  const command = `\`${after.command.replace(/`/g, "'")}\``;
  const show = (m: CoverageMeasurement | undefined) =>
    m?.total ? `${format(m.total.percent)}%` : m && !m.passed ? strings.notMeasuredFailed : strings.notMeasured;
  const metricName = after.total?.metric ?? before?.total?.metric ?? 'coverage';
  const metric = strings.metrics[metricName] ?? metricName;
  if (!before) return strings.afterOnly(command, metric, show(after));
  const delta = before.total && after.total ? after.total.percent - before.total.percent : undefined;
  const change = delta === undefined ? '' : delta === 0 ? strings.unchanged : strings.points(`${delta > 0 ? '+' : '−'}${format(Math.abs(delta))}`);
  return strings.beforeAfter(command, metric, show(before), show(after), change);
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0$/, '');
}
