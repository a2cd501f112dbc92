import { describe, expect, it } from 'vitest';
import { durationSeconds, queryLookbackSeconds } from '../../../src/monitoring/promql-lookback.js';

describe('queryLookbackSeconds', () => {
  it('reads the range window of a query, through aggregations and functions', () => {
    expect(queryLookbackSeconds('sum(rate(http_requests_total{service="checkout",code=~"5.."}[5m]))')).toBe(300);
    expect(queryLookbackSeconds('histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket[1h30m])))')).toBe(5400);
    expect(queryLookbackSeconds('rate(a[1m]) / rate(b[10m] offset 1h)')).toBe(600);
  });

  it('adds a subquery range to the window inside it, not its step', () => {
    expect(queryLookbackSeconds('max_over_time(rate(x[1m])[10m:30s])')).toBe(660);
  });

  it('is 0 for a gauge read as it is, undefined for what does not parse', () => {
    expect(queryLookbackSeconds('avg(http_error_ratio{service="checkout"})')).toBe(0);
    expect(queryLookbackSeconds('sum(')).toBeUndefined();
    expect(queryLookbackSeconds('rate(x[5m')).toBeUndefined();
  });

  it('reads PromQL durations', () => {
    expect([durationSeconds('90s'), durationSeconds('1h30m'), durationSeconds('500ms'), durationSeconds('300'), durationSeconds('5q')]).toEqual([
      90,
      5400,
      0.5,
      300,
      undefined,
    ]);
  });
});
