/** The task's success over iterations: one line per run, run i in slot i's colour (A first; src/shared/runColours.ts). */
import type { ChartDataset } from 'chart.js';
import { Chart, LineController, LineElement, PointElement, LinearScale, Tooltip } from 'chart.js';
import { dataRange, lineOptions, themeColor } from '../common';
import { lineDataset } from '../lineDataset';
import { runColor } from '../metrics/palette';
import { formatPercent } from '../../src/shared/format';
import type { TaskRunView } from '../../src/shared/protocol/task';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip);

type Points = { x: number; y: number | null }[];
export type SuccessChart = Chart<'line', Points>;

function datasets(runs: readonly TaskRunView[]): ChartDataset<'line', Points>[] {
  return runs.map((r, i) =>
    lineDataset(
      r.name,
      r.perIteration.map((p) => ({ x: p.iteration, y: p.success })),
      runColor(i),
      // a point at 0 % or 100 % (or at the first or last iteration) sits on the chart area's edge: drawn whole, not cut in half
      { borderWidth: 1.6, pointRadius: 3, pointHoverRadius: 5, pointHitRadius: 1, spanGaps: false, clip: 6 },
    ),
  );
}

/** The x axis from the first to the last iteration with data in either run (Chart.js alone rounds it up to a tick: 40 for 39). */
export function xRange(runs: readonly TaskRunView[]): { min?: number; max?: number } {
  return dataRange(runs.flatMap((r) => r.perIteration.filter((p) => p.success !== null).map((p) => p.iteration)));
}

/** Draws the chart into `canvas`, or updates the one already there. */
export function drawSuccess(canvas: HTMLCanvasElement, runs: readonly TaskRunView[], old: SuccessChart | undefined): SuccessChart {
  if (old) {
    old.data.datasets = datasets(runs);
    Object.assign(old.options.scales!['x']!, { min: undefined, max: undefined }, xRange(runs));
    old.update('none');
    return old;
  }
  return new Chart<'line', Points>(canvas, {
    type: 'line',
    data: { datasets: datasets(runs) },
    options: {
      // room above 100 % and right of the last iteration for a whole point
      layout: { padding: { top: 6, right: 6 } },
      ...lineOptions({
        text: themeColor('--vscode-descriptionForeground', '#999'),
        grid: themeColor('--vscode-panel-border', '#80808040'),
        x: xRange(runs),
        y: { min: 0, max: 1 },
        xTicks: { maxTicksLimit: 8, precision: 0 },
        yTicks: { maxTicksLimit: 5, callback: (v) => formatPercent(Number(v), 0) },
        label: (item) => `${item.dataset.label ?? ''}: ${formatPercent(item.parsed.y ?? null)} success`,
      }),
    },
  });
}
