import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Series } from './prometheus-client.js';

export interface ChartMarker {
  readonly time: number; // unix seconds
  readonly label: string;
}

/** A PNG line chart of the series, with the incident start and suspect commits as labelled vertical rules. */
export async function renderMetricChart(title: string, series: readonly Series[], markers: readonly ChartMarker[] = []): Promise<Buffer> {
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
  return new Resvg(svg, { font: { loadSystemFonts: true } }).render().asPng();
}
