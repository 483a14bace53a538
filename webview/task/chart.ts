/** The task's success over iterations: one line per run, run i in slot i's colour (A first; src/shared/runColours.ts). */
import type { ChartDataset } from 'chart.js';
import { Chart, LineController, LineElement, PointElement, LinearScale, Tooltip } from 'chart.js';
import { themeColor } from '../common';
import { runColor } from '../metrics/palette';
import { formatPercent } from '../../src/shared/format';
import type { TaskRunView } from '../../src/shared/protocol/task';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip);

type Points = { x: number; y: number | null }[];
export type SuccessChart = Chart<'line', Points>;

function datasets(runs: readonly TaskRunView[]): ChartDataset<'line', Points>[] {
  return runs.map((r, i) => ({
    label: r.name,
    data: r.perIteration.map((p) => ({ x: p.iteration, y: p.success })),
    borderColor: runColor(i),
    backgroundColor: runColor(i),
    borderWidth: 1.6,
    pointRadius: 3,
    pointHoverRadius: 5,
    spanGaps: false,
  }));
}

/** Draws the chart into `canvas`, or updates the one already there. */
export function drawSuccess(canvas: HTMLCanvasElement, runs: readonly TaskRunView[], old: SuccessChart | undefined): SuccessChart {
  if (old) {
    old.data.datasets = datasets(runs);
    old.update('none');
    return old;
  }
  const text = themeColor('--vscode-descriptionForeground', '#999');
  const grid = themeColor('--vscode-panel-border', '#80808040');
  return new Chart<'line', Points>(canvas, {
    type: 'line',
    data: { datasets: datasets(runs) },
    options: {
      animation: false,
      parsing: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false, axis: 'x' },
      scales: {
        x: { type: 'linear', ticks: { color: text, maxTicksLimit: 8, precision: 0 }, grid: { color: grid } },
        y: {
          type: 'linear',
          min: 0,
          max: 1,
          ticks: { color: text, maxTicksLimit: 5, callback: (v) => formatPercent(Number(v), 0) },
          grid: { color: grid },
        },
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: (items) => `iteration ${items[0]?.parsed.x ?? ''}`,
            label: (item) => `${item.dataset.label ?? ''}: ${formatPercent(item.parsed.y ?? null)} success`,
          },
        },
      },
    },
  });
}
