/**
 * The dashboard's runs in the page: which runs are on it, which are toggled off, each
 * chart's visible lines (the primary run's first), and which runs have a point where a
 * chart was clicked. With one run (no `runs`) a chart has the one line it always had.
 */
import { h } from '../common';
import { visibleText } from '../../src/shared/visibleText';
import type { EvalPointsView, RunView, SeriesView } from '../../src/shared/protocol/metrics';

/** A line of a chart: one run's series of the chart's metric (`metric` is that run's own name for it). */
export interface Line {
  run: string;
  metric: string;
  x: readonly number[];
  y: readonly (number | null)[];
  off?: readonly number[];
  /** an eval-success line: its points' tasks and interval */
  evalPoints?: EvalPointsView;
  color: number;
  /** the run's name as shown; '' with one run */
  name: string;
}

let runs: RunView[] = [];
const hidden = new Set<string>();

/** Sets the runs of the latest data and keeps only the toggles of runs still there. */
export function setRuns(next: readonly RunView[] | undefined, hiddenRuns: readonly string[]): void {
  runs = [...(next ?? [])];
  hidden.clear();
  for (const r of hiddenRuns) if (runs.some((x) => x.root === r)) hidden.add(r);
}

export function overlaid(): boolean {
  return runs.length > 1;
}
export function allRuns(): readonly RunView[] {
  return runs;
}
export function hiddenRuns(): string[] {
  return [...hidden];
}
export function toggleRun(root: string): void {
  if (hidden.has(root)) hidden.delete(root);
  else hidden.add(root);
}
/** The runs of this data, in order, as one string (a change of runs redraws every card). */
export function runsKey(): string {
  return JSON.stringify(runs.map((r) => [r.root, r.color]));
}

function runOf(root: string): RunView | undefined {
  return runs.find((r) => r.root === root);
}
export function runName(root: string): string {
  return visibleText(runOf(root)?.name ?? root);
}

const evalOf = (l: { evalPoints?: EvalPointsView }): { evalPoints?: EvalPointsView } => (l.evalPoints ? { evalPoints: l.evalPoints } : {});

/** The chart's lines that are shown: every run's with the metric, less the ones toggled off. */
export function linesOf(s: SeriesView, primaryRoot: string): Line[] {
  if (!overlaid())
    return [{ run: primaryRoot, metric: s.name, x: s.x, y: s.y, ...(s.off ? { off: s.off } : {}), color: 0, name: '', ...evalOf(s) }];
  const primary = runs[0]!;
  const out: Line[] = [];
  if (!s.absent && !hidden.has(primary.root))
    out.push({
      run: primary.root,
      metric: s.name,
      x: s.x,
      y: s.y,
      ...(s.off ? { off: s.off } : {}),
      ...evalOf(s),
      color: primary.color,
      name: runName(primary.root),
    });
  for (const l of s.lines ?? []) {
    const r = runOf(l.run);
    if (!r || hidden.has(l.run)) continue;
    out.push({
      run: l.run,
      metric: l.metric,
      x: l.x,
      y: l.y,
      ...(l.off ? { off: l.off } : {}),
      ...evalOf(l),
      color: r.color,
      name: runName(l.run),
    });
  }
  return out;
}

/** Whether any run has a finite value of this metric (else the chart is not drawn). */
export function hasValues(s: SeriesView): boolean {
  return s.gaps < s.total || (s.lines ?? []).some((l) => l.gaps < l.total);
}

/** The index of the finite point of `l` nearest to iteration `x`, or -1. */
export function nearestPoint(l: Line, x: number): number {
  let best = -1;
  for (let i = 0; i < l.x.length; i++)
    if (l.y[i] !== null && l.y[i] !== undefined && (best < 0 || Math.abs(l.x[i]! - x) < Math.abs(l.x[best]! - x))) best = i;
  return best;
}

/** "only in baseline" where not every run has the metric, and the runs that name it otherwise; '' with one run. */
export function overlayNote(s: SeriesView): HTMLElement | '' {
  if (!overlaid()) return '';
  const parts: (HTMLElement | string)[] = [];
  if (s.onlyIn) parts.push(h('span', { class: 'only-in' }, `only in ${s.onlyIn.map(runName).join(', ')}`));
  for (const l of s.lines ?? [])
    if (l.metric !== s.name)
      parts.push(h('span', { class: 'muted' }, `${parts.length ? ' · ' : ''}${runName(l.run)}: ${visibleText(l.metric)}`));
  return parts.length ? h('div', { class: 'overlay-note' }, ...parts) : '';
}
