/** The report's "Credit diagnostics" section: the gate with its interval, c by outcome, the dose over training. */
import type { Chart } from 'chart.js';
import { h } from '../common';
import { runColor } from '../metrics/palette';
import { SLOT_A } from '../../src/shared/runColours';
import { formatPlain } from '../../src/shared/format';
import type { CreditDiagnosticsView } from '../../src/shared/protocol/credit';
import { doseChart, gateIntervalChart, histogramChart } from './creditCharts';

const canvas = (id: string, label: string): HTMLCanvasElement => h('canvas', { id, role: 'img', 'aria-label': label });

/** The histogram's bins as a table (what the chart draws, for a screen reader and for reading off). */
function binTable(v: CreditDiagnosticsView): HTMLElement {
  const t = h(
    'table',
    { class: 'grid', id: 'credit-hist-table' },
    h('tr', {}, h('th', {}, 'trajectory-mean c'), h('th', { class: 'num' }, 'succeeded'), h('th', { class: 'num' }, 'failed')),
  );
  v.histogram.labels.forEach((label, i) =>
    t.append(
      h(
        'tr',
        { 'data-bin': i },
        h('td', {}, label),
        h('td', { class: 'num', 'data-value': v.histogram.success[i] ?? 0 }, v.histogram.success[i] ?? 0),
        h('td', { class: 'num', 'data-value': v.histogram.failure[i] ?? 0 }, v.histogram.failure[i] ?? 0),
      ),
    ),
  );
  return h('details', {}, h('summary', {}, 'the bins as a table'), t);
}

/** The last gate iteration's figures, as words and as data attributes. */
function lastGate(v: CreditDiagnosticsView): HTMLElement {
  const last = v.gate[v.gate.length - 1];
  if (!last)
    return h(
      'p',
      { class: 'muted', id: 'credit-gate-last' },
      'No iteration has a gate group (a mixed group with a succeeded and a failed labeled trajectory).',
    );
  return h(
    'p',
    {
      id: 'credit-gate-last',
      'data-iteration': last.iteration,
      'data-mean': last.meanDiff,
      'data-lo': String(last.lo),
      'data-hi': String(last.hi),
      'data-groups': last.groups,
    },
    v.gateWords,
  );
}

export class CreditSection {
  private charts: Chart[] = [];
  private readonly gate = canvas('credit-gate-chart', "the gate's mean diff per iteration with its 95% interval");
  private readonly hist = canvas('credit-hist-chart', "trajectory-mean c of the gate's succeeded and failed trajectories, overlaid bins");
  private readonly dose = canvas('credit-dose-chart', 'the dose, rms(beta c) / rms(A), per iteration');

  /** The section's elements; `draw` after they are in the page. */
  elements(v: CreditDiagnosticsView): HTMLElement[] {
    this.destroy();
    const doses = v.dose.filter((x) => x.dose !== null);
    const lastDose = doses[doses.length - 1];
    return [
      h('h2', { id: 'credit-diagnostics' }, 'Credit diagnostics'),
      h('h3', {}, "The gate's mean diff per iteration, with its 95% interval"),
      lastGate(v),
      h(
        'p',
        { class: 'muted' },
        'Each point: the mean over the iteration’s gate groups of (succeeded mean c − failed mean c); the band: ' +
          'mean ± 1.96 × sd / √groups (none for a single group).',
      ),
      h('div', { class: 'credit-box' }, this.gate),
      h('h3', {}, 'c by outcome in mixed groups'),
      h(
        'p',
        { class: 'muted', id: 'credit-hist-note' },
        `Trajectory-mean c of the gate’s labeled trajectories: ${v.histogram.successTotal} succeeded, ` +
          `${v.histogram.failureTotal} failed, in bins of 0.1 over [−1, 1].`,
      ),
      h('div', { class: 'credit-box' }, this.hist),
      binTable(v),
      h('h3', {}, 'The dose over training'),
      h(
        'p',
        { class: 'muted', id: 'credit-dose-note' },
        lastDose
          ? `rms(β·c) / rms(A) per iteration; at iteration ${lastDose.iteration}: ${formatPlain(lastDose.dose, 4)}. ` +
              `The dashed line is the card’s whole-run figure, ${v.doseCard}; the card states no target for it.`
          : 'No credited turn: no dose.',
      ),
      h('div', { class: 'credit-box' }, this.dose),
    ];
  }

  draw(v: CreditDiagnosticsView): void {
    const color = runColor(SLOT_A);
    this.charts = [
      ...(v.gate.length ? [gateIntervalChart(this.gate, [{ label: 'this run', color, gate: v.gate }])] : []),
      histogramChart(this.hist, v.histogram),
      ...(v.dose.some((x) => x.dose !== null) ? [doseChart(this.dose, v)] : []),
    ];
  }

  destroy(): void {
    for (const c of this.charts) c.destroy();
    this.charts = [];
  }
}
