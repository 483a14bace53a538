/** The words of the Evaluation chart (docs/format.md section 8): a point's success, tasks and interval, and what Enter does there. */
import { h } from '../common';
import { formatMetric, formatRate, plural } from '../../src/shared/format';
import type { SeriesView } from '../../src/shared/protocol/metrics';
import type { Line } from './overlay';

export const EVAL_GROUP = 'Evaluation';

export const isEvalChart = (s: SeriesView): boolean => s.evalPoints !== undefined || (s.lines ?? []).some((l) => l.evalPoints);

/** "0.5328 on 274 tasks (1,096 episodes, 95% CI 0.497 to 0.569)" for point i of an eval line (`short`: without the episodes). */
export function evalPointText(l: Line, i: number, short = false): string {
  const e = l.evalPoints;
  const value = formatMetric('success', l.y[i] ?? null);
  if (!e) return value;
  const tasks = e.tasks[i] ?? 0;
  const lo = e.lo[i];
  const hi = e.hi[i];
  const ci =
    lo !== null && lo !== undefined && hi !== null && hi !== undefined ? `, 95% CI ${formatRate(lo, 3)} to ${formatRate(hi, 3)}` : '';
  if (short) return `${value} on ${plural(tasks, 'task')}${ci ? ` (${ci.slice(2)})` : ''}`;
  return `${value} on ${plural(tasks, 'task')} (${plural(e.samples[i] ?? 0, 'episode')}${ci})`;
}

/** The keyboard readout of point i of the chart's first line. */
export function describeEvalPoint(l: Line, i: number): string {
  const who = l.name ? ` (${l.name})` : '';
  return `eval success${who}, iteration ${l.x[i] ?? '?'}: ${evalPointText(l, i)}. Enter offers to download its checkpoint.`;
}

/** The card's second line with one run: the last checkpoint's success and what a point does. */
export function evalSummary(s: SeriesView): HTMLElement {
  const n = s.x.length;
  const last = s.last ? `last ${formatMetric('success', s.last.y)} at iteration ${s.last.x}` : 'no checkpoint evaluated';
  const tasks = n > 0 && s.evalPoints ? ` on ${plural(s.evalPoints.tasks[n - 1] ?? 0, 'task')}` : '';
  const does = 'a point offers its checkpoint’s download';
  return h('div', { class: 'summary muted' }, `${last}${tasks} · ${plural(n, 'checkpoint')} · ${does}`);
}

export const EVAL_SECTION_TITLE =
  'Evaluation (docs/format.md section 8: success per checkpoint with its 95% interval; a point offers the checkpoint’s download)';
