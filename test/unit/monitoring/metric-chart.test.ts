import { describe, expect, it } from 'vitest';
import { renderMetricChart } from '../../../src/monitoring/metric-chart.js';

describe('renderMetricChart', () => {
  it('renders a PNG of the series with the markers', async () => {
    const samples = Array.from({ length: 30 }, (_, i) => ({ time: 1_700_000_000 + i * 60, value: i < 20 ? 1 : 6 }));
    const png = await renderMetricChart(
      'errors',
      [{ labels: { service: 'checkout' }, samples }],
      [
        { time: 1_700_000_000 + 20 * 60, label: 'incident' },
        { time: 1_700_000_000 + 18 * 60, label: 'abc1234' },
      ],
    );
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBeGreaterThan(600); // IHDR width
  });
});
