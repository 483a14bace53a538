/**
 * The per-iteration success of both runs (two lines) and their difference (its own chart,
 * with the zero line), Chart.js as the dashboard draws.
 */
import { Chart, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import type { ChartDataset } from 'chart.js';
import { dataRange, h, lineOptions, themeColor } from '../common';
import { levelDataset, lineDataset as line } from '../lineDataset';
import { runColor } from '../metrics/palette';
import { SLOT_A, SLOT_B } from '../../src/shared/runColours';
import { formatFigure, formatRate } from '../../src/shared/format';
import type { CompareChartsView, CompareView } from '../../src/shared/protocol/compare';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

type Points = { x: number; y: number }[];

function applyFont(): void {
  const cs = getComputedStyle(document.body);
  Chart.defaults.font.family = cs.fontFamily || 'sans-serif';
  const size = parseFloat(cs.fontSize);
  Chart.defaults.font.size = Number.isFinite(size) && size > 0 ? Math.max(9, size - 2) : 11;
}

function colors(): { a: string; b: string; diff: string; zero: string; text: string; grid: string } {
  return {
    a: runColor(SLOT_A),
    b: runColor(SLOT_B),
    diff: themeColor('--vscode-charts-green', '#89d185'),
    zero: themeColor('--vscode-descriptionForeground', '#888'),
    text: themeColor('--vscode-foreground', '#ccc'),
    grid: themeColor('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)'),
  };
}

type Range = { min?: number; max?: number };

/** The x axis from the first to the last common iteration, not to the next round tick. */
function xRange(p: CompareChartsView['perIteration']): Range {
  return dataRange(p.map((x) => x.iteration));
}

function chart(canvas: HTMLCanvasElement, datasets: ChartDataset<'line', Points>[], x: Range, y: Range, fmt: (v: number) => string): Chart {
  const c = colors();
  return new Chart(canvas, {
    type: 'line',
    data: { datasets },
    options: lineOptions({
      text: c.text,
      grid: c.grid,
      x,
      y,
      xTicks: { maxTicksLimit: 8 },
      yTicks: { maxTicksLimit: 6 },
      xTitle: 'iteration',
      legend: true,
      label: (item) => `${item.dataset.label ?? ''}: ${fmt(item.parsed.y ?? Number.NaN)}`,
    }),
  });
}

export class SuccessCharts {
  readonly el: HTMLElement;
  private charts: Chart[] = [];
  private readonly success = h('canvas', { id: 'success-chart', role: 'img', 'aria-label': 'success per iteration of run A and run B' });
  private readonly diff = h('canvas', { id: 'diff-chart', role: 'img', 'aria-label': "A's success minus B's per iteration" });
  private readonly note = h('p', { class: 'muted', id: 'chart-note' });
  private last: { v: CompareView; charts: CompareChartsView } | undefined;

  constructor() {
    this.el = h(
      'div',
      { class: 'compare-charts' },
      this.note,
      h('div', { class: 'chart-box' }, this.success),
      h('div', { class: 'chart-box small' }, this.diff),
    );
  }

  draw(v: CompareView, charts: CompareChartsView): void {
    this.last = { v, charts };
    const p = charts.perIteration;
    this.note.textContent =
      p.length === 0
        ? 'No common iteration: nothing to draw.'
        : `Share of trajectories with reward > 0 at each of the ${p.length} common iterations.`;
    const sa = p.map((x) => ({ x: x.iteration, y: x.successA }));
    const sb = p.map((x) => ({ x: x.iteration, y: x.successB }));
    const d = p.map((x) => ({ x: x.iteration, y: x.diff }));
    if (this.charts.length === 2) {
      const [c1, c2] = this.charts as [Chart, Chart];
      c1.data.datasets[0]!.data = sa;
      c1.data.datasets[1]!.data = sb;
      c2.data.datasets[0]!.data = d;
      c2.data.datasets[1]!.data = zero(p).data;
      for (const ch of [c1, c2]) Object.assign(ch.options.scales!['x']!, { min: undefined, max: undefined }, xRange(p));
      c1.update('none');
      c2.update('none');
      return;
    }
    applyFont();
    const c = colors();
    const rate = (y: number): string => formatRate(y, 3);
    this.charts = [
      chart(this.success, [line(`A: ${v.a.name}`, sa, c.a), line(`B: ${v.b.name}`, sb, c.b)], xRange(p), { min: 0, max: 1 }, rate),
      chart(this.diff, [line('A − B', d, c.diff), zero(p)], xRange(p), {}, (y) => formatFigure(y, 3)),
    ];
  }

  /** New theme colours: draw again from the last view. */
  redraw(): void {
    for (const ch of this.charts) ch.destroy();
    this.charts = [];
    if (this.last) this.draw(this.last.v, this.last.charts);
  }
}

/** The zero line from the first to the last common iteration. */
function zero(p: CompareChartsView['perIteration']): ChartDataset<'line', Points> {
  const x = p.length === 0 ? {} : { min: p[0]!.iteration, max: p[p.length - 1]!.iteration };
  return levelDataset('0 (no difference)', x, 0, themeColor('--vscode-descriptionForeground', '#888'), { borderWidth: 1.5 });
}
