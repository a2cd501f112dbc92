import { describe, expect, it } from 'vitest';
import { parseConfigFile } from '../../../src/config/load-config.js';
import { monitoringSourceName } from '../../../src/monitoring/triage-monitoring.js';

describe('which monitoring source a triage reads', () => {
  const file = parseConfigFile({
    monitoring: { checkout: { prometheus: { url: 'https://p.internal' } }, incidents: { prometheus: { url: 'https://q.internal' } } },
    channels: { C0INC: { repo: 'acme/checkout', monitoring: 'incidents' }, C0PLAIN: { repo: 'acme/checkout' } },
    pagerduty: {
      services: {
        PABC123: { repo: 'acme/checkout', channel: 'C0INC', monitoring: 'checkout' },
        PNOSRC: { repo: 'acme/checkout', channel: 'C0INC' },
        PNONE: { repo: 'acme/checkout', channel: 'C0PLAIN' },
      },
    },
  });

  it("uses the PagerDuty service's own source, else its channel's; a manual triage uses the channel's", () => {
    expect(monitoringSourceName(file, { serviceId: 'PABC123', channel: 'C0INC' })).toBe('checkout');
    expect(monitoringSourceName(file, { serviceId: 'PNOSRC', channel: 'C0INC' })).toBe('incidents');
    expect(monitoringSourceName(file, { channel: 'C0INC' })).toBe('incidents');
    expect(monitoringSourceName(file, { serviceId: 'PNONE', channel: 'C0PLAIN' })).toBeUndefined();
    expect(monitoringSourceName(file, { channel: 'C0UNKNOWN' })).toBeUndefined();
  });
});
