import type { CoverageTotal } from './parse-coverage.js';

export interface CoverageMeasurement {
  command: string;
  /** Undefined when the command failed or printed no total I could read. */
  total?: CoverageTotal;
  passed: boolean;
}

/** "`npm run coverage`: lines 62.5% before → 81.25% after (+18.75 points)." */
export function renderCoverageChange(before: CoverageMeasurement | undefined, after: CoverageMeasurement): string {
  const command = `\`${after.command.replace(/`/g, "'")}\``;
  const show = (m: CoverageMeasurement | undefined) =>
    m?.total ? `${format(m.total.percent)}%` : m && !m.passed ? 'not measured (the command failed)' : 'not measured';
  const metric = after.total?.metric ?? before?.total?.metric ?? 'coverage';
  if (!before) return `${command}: ${metric} ${show(after)} after the change (the base commit was not measured).`;
  const delta = before.total && after.total ? after.total.percent - before.total.percent : undefined;
  const change = delta === undefined ? '' : delta === 0 ? ' (unchanged)' : ` (${delta > 0 ? '+' : '−'}${format(Math.abs(delta))} points)`;
  return `${command}: ${metric} ${show(before)} before → ${show(after)} after${change}.`;
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0$/, '');
}
