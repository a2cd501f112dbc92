import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Series } from './prometheus-client.js';

export interface ChartMarker {
  readonly time: number; // unix seconds
  readonly label: string;
}

/** The font the chart's text is drawn in, shipped with the package (DejaVu Sans), so it renders without system fonts. */
export const CHART_FONT_FAMILY = 'DejaVu Sans';
export const CHART_FONT_FILES: readonly string[] = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) =>
  createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${file}`),
);

export interface ChartOptions {
  /** The font files to draw text with (default: the shipped DejaVu Sans); system fonts are never read. */
  readonly fontFiles?: readonly string[];
}

/** A PNG line chart of the series, with the incident start and suspect commits as labelled vertical rules. */
export async function renderMetricChart(
  title: string,
  series: readonly Series[],
  markers: readonly ChartMarker[] = [],
  options: ChartOptions = {},
): Promise<Buffer> {
  const fontFiles = options.fontFiles ?? CHART_FONT_FILES;
  const missing = fontFiles.filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`The chart's font is missing (${missing.join(', ')}); reinstall Wrench's dependencies (npm ci).`);
  const points = series.flatMap((one) => {
    const name =
      Object.entries(one.labels)
        .map(([key, value]) => `${key}=${value}`)
        .join(',') || title;
    return one.samples.filter((sample) => Number.isFinite(sample.value)).map((sample) => ({ time: sample.time * 1000, value: sample.value, series: name }));
  });
  const rules = markers.map((marker) => ({ time: marker.time * 1000, label: marker.label }));
  const spec: TopLevelSpec = {
    title,
    config: { font: CHART_FONT_FAMILY },
    width: 640,
    height: 240,
    background: 'white',
    layer: [
      {
        data: { values: points },
        mark: { type: 'line' },
        encoding: {
          x: { field: 'time', type: 'temporal', title: 'UTC', timeUnit: 'utcyearmonthdatehoursminutes' },
          y: { field: 'value', type: 'quantitative', title: null },
          color: { field: 'series', type: 'nominal', legend: { orient: 'bottom', title: null } },
        },
      },
      {
        data: { values: rules },
        mark: { type: 'rule', color: '#d62728', strokeDash: [4, 3] },
        encoding: { x: { field: 'time', type: 'temporal', timeUnit: 'utcyearmonthdatehoursminutes' } },
      },
      {
        data: { values: rules },
        mark: { type: 'text', align: 'left', dx: 3, dy: -110, color: '#d62728', fontSize: 10 },
        encoding: { x: { field: 'time', type: 'temporal', timeUnit: 'utcyearmonthdatehoursminutes' }, text: { field: 'label' } },
      },
    ],
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: [...fontFiles], defaultFontFamily: CHART_FONT_FAMILY, sansSerifFamily: CHART_FONT_FAMILY },
  })
    .render()
    .asPng();
}
