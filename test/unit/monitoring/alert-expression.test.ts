import { describe, expect, it } from 'vitest';
import { alertExpression, alertExpressions, withoutThreshold } from '../../../src/monitoring/alert-expression.js';

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

describe('alertExpressions and withoutThreshold', () => {
  it("finds the expression in an Alertmanager alert's firing text as PagerDuty carries it", () => {
    const expr = 'sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m])) > 0.05';
    const generator = `http://prometheus-0:9090/graph?g0.expr=${encodeURIComponent(expr)}&g0.tab=1`;
    const alert = {
      summary: '[FIRING:1] HighErrorRate checkout',
      body: {
        details: {
          firing: `Labels:\n - alertname = HighErrorRate\n - service = checkout\nAnnotations:\n - summary = errors above 5%\nSource: ${generator}\n`,
          num_firing: '1',
        },
        contexts: [{ type: 'link', href: generator }],
      },
    };
    expect(alertExpressions([alert])).toEqual([expr]);
    expect(alertExpressions([{ summary: 'no url', body: { details: { link: 'https://example.com/x' } } }])).toEqual([]);
  });

  it('drops only a trailing top-level comparison with a number', () => {
    expect(withoutThreshold('sum(rate(x[5m])) / sum(rate(y[5m])) > 0.05')).toBe('sum(rate(x[5m])) / sum(rate(y[5m]))');
    expect(withoutThreshold('up == 0')).toBe('up');
    expect(withoutThreshold('errors{code=~"5.."} >= bool 1e3')).toBe('errors{code=~"5.."}');
    expect(withoutThreshold('(x > 1)')).toBe('(x > 1)');
    expect(withoutThreshold('x > y')).toBe('x > y');
    expect(withoutThreshold('rate(x[5m])')).toBe('rate(x[5m])');
  });
});
