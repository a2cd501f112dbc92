import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigFile } from '../../../src/config/load-config.js';
import { expandMonitoringSource } from '../../../src/monitoring/monitoring-config.js';

const monitoring = {
  checkout: {
    prometheus: {
      url: 'https://prometheus.internal',
      headers: { authorization: 'Bearer ${PROM_TOKEN}' },
      queries: { errors: 'sum(rate(http_requests_total{code=~"5.."}[5m]))' },
    },
    mcpServers: {
      sentry: { command: 'npx', args: ['-y', '@sentry/mcp-server'], env: { SENTRY_TOKEN: '${SENTRY_TOKEN}' }, tools: ['search_issues'] },
      grafana: { url: 'https://grafana.internal/mcp', headers: { authorization: 'Bearer ${GRAFANA_TOKEN}' }, tools: ['query_loki_logs'] },
    },
  },
};

describe('monitoring configuration', () => {
  it('reads Prometheus, stdio and HTTP MCP servers, referenced from a service and a channel', () => {
    const config = parseConfigFile({
      monitoring,
      channels: { C0INC: { repo: 'acme/checkout', monitoring: 'checkout' } },
      pagerduty: { services: { PABC123: { repo: 'acme/checkout', channel: 'C0INC', monitoring: 'checkout' } } },
    });
    expect(config.monitoring.checkout!.prometheus?.queries.errors).toContain('http_requests_total');
    expect(config.monitoring.checkout!.mcpServers.sentry).toMatchObject({ command: 'npx', tools: ['search_issues'] });
    expect(config.pagerduty.services.PABC123!.monitoring).toBe('checkout');
    expect(config.channels.C0INC!.monitoring).toBe('checkout');
  });

  it('names an unknown source, a server without a tools allowlist and a bad URL', () => {
    expect(() => parseConfigFile({ monitoring, channels: { C0INC: { repo: 'acme/x', monitoring: 'billing' } } })).toThrow(
      /channels\.C0INC\.monitoring.*names no source/,
    );
    expect(() => parseConfigFile({ monitoring: { a: { mcpServers: { s: { command: 'x', tools: [] } } } } })).toThrow(/monitoring\.a\.mcpServers\.s/);
    expect(() => parseConfigFile({ monitoring: { a: { prometheus: { url: 'not a url' } } } })).toThrow(/monitoring\.a\.prometheus\.url/);
    expect(() => parseConfigFile({ monitoring: { a: { window: { minutesBefore: 2 } } } })).toThrow(/monitoring\.a\.window\.minutesBefore/);
    expect(parseConfigFile({ monitoring: { a: { window: { minutesAfter: 10 } } } }).monitoring.a!.window).toEqual({
      minutesBefore: 60,
      minutesAfter: 10,
      compareWeekEarlier: true,
    });
  });

  it('takes ${VAR} from the environment and names a missing one', () => {
    const source = parseConfigFile({ monitoring }).monitoring.checkout;
    const expanded = expandMonitoringSource('checkout', source!, { PROM_TOKEN: 'p', SENTRY_TOKEN: 's', GRAFANA_TOKEN: 'g' });
    expect(expanded.prometheus?.headers.authorization).toBe('Bearer p');
    expect(expanded.mcpServers.sentry).toMatchObject({ env: { SENTRY_TOKEN: 's' } });
    expect(() => expandMonitoringSource('checkout', source!, { PROM_TOKEN: 'p' })).toThrow(
      /monitoring\.checkout\.mcpServers\.sentry\.env\.SENTRY_TOKEN uses \$\{SENTRY_TOKEN\}/,
    );
  });

  it('reads ${file:PATH} (a mounted secret), names a file it cannot read, and reports every substituted value as a secret', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wrench-monitoring-'));
    writeFileSync(path.join(dir, 'token'), 'from-a-file\n');
    const source = parseConfigFile({
      monitoring: { a: { prometheus: { url: 'https://p.internal', headers: { authorization: `Bearer \${file:${path.join(dir, 'token')}}` } } } },
    }).monitoring.a;
    const secrets: string[] = [];
    expect(expandMonitoringSource('a', source!, {}, (value) => secrets.push(value)).prometheus?.headers.authorization).toBe('Bearer from-a-file');
    expect(secrets).toEqual(['from-a-file']);
    const missing = parseConfigFile({ monitoring: { a: { prometheus: { url: 'https://p.internal', headers: { x: '${file:/nonexistent/token}' } } } } })
      .monitoring.a;
    expect(() => expandMonitoringSource('a', missing!, {})).toThrow(
      /monitoring\.a\.prometheus\.headers\.x reads \$\{file:\/nonexistent\/token\}, which cannot be read \(ENOENT\)/,
    );
    rmSync(dir, { recursive: true });
  });
});
