import { describe, expect, it } from 'vitest';
import { alertExpression } from '../../../src/monitoring/alert-expression.js';

describe('alertExpression', () => {
  it('reads the expression from an Alertmanager generatorURL', () => {
    const expr = 'sum(rate(http_requests_total{code=~"5.."}[5m])) > 1';
    expect(alertExpression(`http://prometheus:9090/graph?g0.expr=${encodeURIComponent(expr)}&g0.tab=1`)).toBe(expr);
  });

  it('gives nothing for a missing, malformed or expression-less URL', () => {
    expect(alertExpression(undefined)).toBeUndefined();
    expect(alertExpression(null)).toBeUndefined();
    expect(alertExpression('not a url')).toBeUndefined();
    expect(alertExpression('http://prometheus:9090/graph?g0.tab=1')).toBeUndefined();
  });
});
