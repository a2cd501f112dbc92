import { parser } from '@prometheus-io/lezer-promql';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };

/**
 * How far back a PromQL expression looks at each evaluation: its longest chain of range windows
 * (`rate(x[5m])` 300 s; a subquery `max_over_time(rate(x[1m])[10m:30s])` 660 s), through Prometheus' own
 * grammar. 0 for an expression without ranges (a gauge read as it is); undefined when it does not parse or a
 * window is not a plain duration.
 */
export function queryLookbackSeconds(query: string): number | undefined {
  const tree = parser.parse(query);
  let broken = false;
  tree.iterate({
    enter(node) {
      if (node.type.isError) broken = true;
    },
  });
  if (broken) return undefined;
  return lookback(tree.topNode, query);
}

function lookback(node: SyntaxNode, query: string): number | undefined {
  let deepest = 0;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.name === 'DurationExpr' || child.name === 'OffsetDurationExpr') continue;
    const inner = lookback(child, query);
    if (inner === undefined) return undefined;
    deepest = Math.max(deepest, inner);
  }
  if (node.name !== 'MatrixSelector' && node.name !== 'SubqueryExpr') return deepest;
  // The first duration of a range selector or subquery is its range (a subquery's second is its step).
  const range = node.getChild('DurationExpr');
  const seconds = range ? durationSeconds(query.slice(range.from, range.to)) : undefined;
  return seconds === undefined ? undefined : deepest + seconds;
}

/** A PromQL duration ("5m", "1h30m", "90s", or plain seconds "300") in seconds. */
export function durationSeconds(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit = ''] of trimmed.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) {
    const seconds = UNIT_SECONDS[unit];
    if (seconds === undefined) return undefined;
    total += Number(amount) * seconds;
  }
  return total;
}
