import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { CHART_FONT_FILES, renderMetricChart } from '../../../src/monitoring/metric-chart.js';

const samples = Array.from({ length: 30 }, (_, i) => ({ time: 1_700_000_000 + i * 60, value: i < 20 ? 1 : 6 }));
const render = (fontFiles?: readonly string[]) =>
  renderMetricChart(
    'errors',
    [{ labels: { service: 'checkout' }, samples }],
    [
      { time: 1_700_000_000 + 20 * 60, label: 'incident' },
      { time: 1_700_000_000 + 18 * 60, label: 'abc1234' },
    ],
    { fontFiles },
  );

/** How many pixels of the rows [from, to) are not white: text drawn there makes them dark. */
function inkIn(png: Buffer, from: number, to: number): number {
  const image = new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image href="data:image/png;base64,${png.toString('base64')}"/></svg>`,
  );
  const { pixels, width } = image.render();
  let ink = 0;
  for (let y = from; y < to; y++) for (let x = 0; x < width; x++) if (pixels[(y * width + x) * 4]! < 128) ink++;
  return ink;
}

describe('renderMetricChart', () => {
  it('renders a PNG of the series with the markers', async () => {
    const png = await render();
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBeGreaterThan(600); // IHDR width
  });

  it('draws its title and labels with the font shipped in the package, reading no system fonts', async () => {
    expect(CHART_FONT_FILES.every((file) => file.includes('node_modules/dejavu-fonts-ttf/ttf/'))).toBe(true);
    const [withFont, withoutFonts] = await Promise.all([render(), render([])]);
    expect(withFont.equals(withoutFonts)).toBe(false);
    // The title sits in the top rows: drawn with the shipped font, absent with no fonts at all.
    expect(inkIn(withoutFonts, 0, 20)).toBe(0);
    expect(inkIn(withFont, 0, 20)).toBeGreaterThan(20);
  });

  it('says so when the font is missing rather than drawing a chart without text', async () => {
    await expect(render(['/nonexistent/DejaVuSans.ttf'])).rejects.toThrow(/The chart's font is missing \(\/nonexistent\/DejaVuSans\.ttf\); reinstall/);
  });
});
