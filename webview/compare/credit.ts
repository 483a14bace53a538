/** The comparison's credit diagnostics: both runs' gate mean diff per iteration with its 95% interval, side by side. */
import type { Chart } from 'chart.js';
import { h } from '../common';
import { runColor } from '../metrics/palette';
import { SLOT_A, SLOT_B } from '../../src/shared/runColours';
import type { CompareChartsView, CompareCreditView, CompareView } from '../../src/shared/protocol/compare';
import { gateIntervalChart } from '../report/creditCharts';

/** One run's last gate figures as words and data attributes. */
function sideLine(which: 'a' | 'b', name: string, v: CompareCreditView): HTMLElement {
  const last = v.gate[v.gate.length - 1];
  const attrs = last
    ? {
        'data-iteration': last.iteration,
        'data-mean': last.meanDiff,
        'data-lo': String(last.lo),
        'data-hi': String(last.hi),
        'data-groups': last.groups,
      }
    : {};
  return h(
    'p',
    { id: `credit-gate-${which}`, ...attrs },
    h('strong', {}, `${which.toUpperCase()}: `),
    last ? v.gateWords : `${name}: no iteration of the window has a gate group (no labeled turns, or no mixed group).`,
  );
}

export class CreditGates {
  readonly el = h('div', { id: 'credit-gates' });
  private chart: Chart | undefined;
  private last: { v: CompareView; charts: CompareChartsView } | undefined;
  private readonly canvas = h('canvas', {
    id: 'credit-gates-chart',
    role: 'img',
    'aria-label': "both runs' gate mean diff per iteration with its 95% interval",
  });

  draw(v: CompareView, charts: CompareChartsView): void {
    this.last = { v, charts };
    this.chart?.destroy();
    this.chart = undefined;
    const { a, b } = charts.credit;
    this.el.replaceChildren(
      h(
        'p',
        { class: 'muted' },
        'Training rollouts: at each iteration of the window, the mean over its gate groups of (succeeded mean c − failed mean c), ' +
          'with mean ± 1.96 × sd / √groups; a run without labeled turns has none.',
      ),
      sideLine('a', v.a.name, a),
      sideLine('b', v.b.name, b),
      h('div', { class: 'chart-box' }, this.canvas),
    );
    const series = [
      { label: 'A', color: runColor(SLOT_A), gate: a.gate },
      { label: 'B', color: runColor(SLOT_B), gate: b.gate },
    ].filter((s) => s.gate.length > 0);
    if (series.length > 0) this.chart = gateIntervalChart(this.canvas, series, true);
  }

  redraw(): void {
    if (this.last) this.draw(this.last.v, this.last.charts);
  }
}
