/**
 * The credit diagnostics' charts (issue #24 item 6): the gate's mean diff per iteration with its
 * 95% interval (one run, or A and B side by side), c by outcome as overlaid bins, the dose over
 * training with the card's figure. Chart.js, drawn from the view as it is.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { ChartDataset } from 'chart.js';
import { dataRange, lineOptions, themeColor } from '../common';
import { levelDataset, lineDataset as line, translucent } from '../lineDataset';
import { formatPlain, formatSigned } from '../../src/shared/format';
import { runColor } from '../metrics/palette';
import { SLOT_A } from '../../src/shared/runColours';
import type { CHistogramView, CreditDiagnosticsView, GateIntervalView } from '../../src/shared/protocol/credit';

Chart.register(BarController, BarElement, CategoryScale, LineController, LineElement, PointElement, LinearScale, Filler, Legend, Tooltip);

type Points = { x: number; y: number }[];

/** One run's gate series: its name in the legend and its colour. */
export interface GateSeries {
  label: string;
  color: string;
  gate: readonly GateIntervalView[];
}

const axes = (): { text: string; grid: string; zero: string } => ({
  text: themeColor('--vscode-foreground', '#ccc'),
  grid: themeColor('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)'),
  zero: themeColor('--vscode-descriptionForeground', '#888'),
});

/** The interval's band of one series (low, then high filled to it) and its mean diff. */
function gateDatasets(s: GateSeries, prefix: string): ChartDataset<'line', Points>[] {
  const withCi = s.gate.filter((g) => g.lo !== null && g.hi !== null);
  const pts = (f: (g: GateIntervalView) => number): Points => withCi.map((g) => ({ x: g.iteration, y: f(g) }));
  return [
    line(
      `${prefix}95% CI low`,
      pts((g) => g.lo!),
      s.color,
      { borderDash: [3, 3], borderWidth: 1 },
    ),
    line(
      `${prefix}95% CI high`,
      pts((g) => g.hi!),
      s.color,
      {
        borderDash: [3, 3],
        borderWidth: 1,
        fill: { target: '-1' },
        backgroundColor: translucent(s.color),
      },
    ),
    line(
      `${prefix}mean diff`,
      s.gate.map((g) => ({ x: g.iteration, y: g.meanDiff })),
      s.color,
      { pointRadius: 3, borderWidth: 2 },
    ),
  ];
}

/** The gate's mean diff per iteration with its interval, one band per run, and the zero line. */
/** `prefixed`: each dataset's label starts with its run's (always in a comparison, where one run may have no gate). */
export function gateIntervalChart(canvas: HTMLCanvasElement, series: readonly GateSeries[], prefixed = series.length > 1): Chart {
  const c = axes();
  const x = dataRange(series.flatMap((s) => s.gate.map((g) => g.iteration)));
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        ...series.flatMap((s) => gateDatasets(s, prefixed ? `${s.label}: ` : '')),
        levelDataset('0 (no difference)', x, 0, c.zero),
      ],
    },
    options: lineOptions({
      text: c.text,
      grid: c.grid,
      x,
      xTicks: { maxTicksLimit: 10 },
      yTicks: { maxTicksLimit: 6 },
      xTitle: 'iteration',
      legend: true,
      label: (item) => `${item.dataset.label ?? ''}: ${formatSigned(item.parsed.y ?? Number.NaN, 4)}`,
    }),
  });
}

/** Trajectory-mean c of the gate's trajectories, succeeded and failed as overlaid bars. */
export function histogramChart(canvas: HTMLCanvasElement, h: CHistogramView): Chart {
  const c = axes();
  const ok = themeColor('--vscode-charts-green', '#89d185');
  const bad = themeColor('--vscode-charts-red', '#f14c4c');
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: h.lo.map((x) => formatPlain(x, 1)),
      datasets: [
        {
          label: `succeeded (${h.successTotal})`,
          data: h.success,
          backgroundColor: translucent(ok, '80'),
          borderColor: ok,
          borderWidth: 1,
        },
        // failed as an outline over the filled succeeded bars, so that where they overlap both stay readable
        { label: `failed (${h.failureTotal})`, data: h.failure, backgroundColor: translucent(bad, '1a'), borderColor: bad, borderWidth: 2 },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      datasets: { bar: { grouped: false, categoryPercentage: 1, barPercentage: 0.95 } },
      scales: {
        x: {
          ticks: { color: c.text },
          grid: { color: c.grid },
          title: { display: true, text: 'trajectory-mean c (bin from)', color: c.text },
        },
        y: {
          ticks: { color: c.text, precision: 0 },
          grid: { color: c.grid },
          title: { display: true, text: 'trajectories', color: c.text },
        },
      },
      plugins: {
        legend: { display: true, labels: { color: c.text } },
        tooltip: { callbacks: { title: (items) => `c ${h.labels[items[0]?.dataIndex ?? 0] ?? ''}` } },
      },
    },
  });
}

/** The dose per iteration, with the card's whole-run figure as a dashed line. */
export function doseChart(canvas: HTMLCanvasElement, d: CreditDiagnosticsView): Chart {
  const c = axes();
  const color = runColor(SLOT_A);
  const pts = d.dose.flatMap((x) => (x.dose === null ? [] : [{ x: x.iteration, y: x.dose }]));
  const x = dataRange(pts.map((p) => p.x));
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        line('rms(β·c) / rms(A)', pts, color, { pointRadius: 2, borderWidth: 2 }),
        levelDataset(`the card's whole-run figure (${d.doseCard})`, x, d.doseCard, c.zero),
      ],
    },
    options: lineOptions({
      text: c.text,
      grid: c.grid,
      x,
      y: { min: 0 },
      xTicks: { maxTicksLimit: 10 },
      yTicks: { maxTicksLimit: 6 },
      xTitle: 'iteration',
      legend: true,
      label: (item) => `${item.dataset.label ?? ''}: ${formatPlain(item.parsed.y, 4)}`,
    }),
  });
}
