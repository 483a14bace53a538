/**
 * The dashboard with overlaid runs (pure; no vscode): one chart per metric matched across
 * the runs (`metricMatch.ts`), each run's line decimated on the host like the primary's,
 * and which runs have a metric when not all of them do.
 */
import type { MetricsTable } from '../../core/log/metricsIndex';
import { compareMetricNames, metricPrefix } from '../../core/log/metricsIndex';
import { METRIC_TARGETS } from '../../core/report/targets';
import type { MetricTarget } from '../../core/report/targets';
import type { RunLine, RunView, SeriesView } from '../../shared/protocol/metrics';
import { seriesLine } from '../metrics/seriesViews';
import { chartSelection } from '../metrics/chartCap';
import { canonicalMetric } from './metricMatch';

/** One run as the overlay reads it: its metrics table, or why it has none. */
export interface OverlayRun {
  root: string;
  name: string;
  color: number;
  table: MetricsTable | undefined;
  problem?: string;
}

export interface OverlayViews {
  series: SeriesView[];
  runs: RunView[];
  xRange: { min: number; max: number } | null;
  /** charts left out by the cap (`chartSelection`) */
  more: number;
}

/** A chart being built: its name (the first run's that has it), the key it matches by, each run's metric on it. */
interface Slot {
  name: string;
  key: string;
  /** run root -> that run's metric name */
  lines: Map<string, string>;
}

/** Puts each run's metric on the chart of the same name, else on one of the same canonical name, else on a new chart. */
function slots(runs: readonly OverlayRun[]): Slot[] {
  const out: Slot[] = [];
  const byName = new Map<string, Slot>();
  const byKey = new Map<string, Slot[]>();
  for (const r of runs) {
    const rest: string[] = [];
    for (const name of r.table?.names ?? []) {
      const slot = byName.get(name);
      if (slot && !slot.lines.has(r.root)) slot.lines.set(r.root, name);
      else rest.push(name);
    }
    const fresh: Slot[] = [];
    for (const name of rest) {
      const key = canonicalMetric(name);
      const slot = byKey.get(key)?.find((o) => !o.lines.has(r.root));
      if (slot) slot.lines.set(r.root, name);
      else fresh.push({ name, key, lines: new Map([[r.root, name]]) });
    }
    // a run's own order for the first run; a later run's new metrics in the dashboard's order
    if (out.length > 0) fresh.sort((a, b) => compareMetricNames(a.name, b.name));
    for (const f of fresh) {
      out.push(f);
      byName.set(f.name, f);
      const same = byKey.get(f.key);
      if (same) same.push(f);
      else byKey.set(f.key, [f]);
    }
  }
  return out;
}

function targetOf(slot: Slot): MetricTarget | undefined {
  return METRIC_TARGETS[slot.name] ?? METRIC_TARGETS[slot.key];
}

function chart(slot: Slot, runs: readonly OverlayRun[], withData: readonly OverlayRun[], width: number): SeriesView {
  const [primary, ...others] = runs;
  const target = targetOf(slot);
  const ownName = primary && slot.lines.get(primary.root);
  const own = ownName !== undefined ? primary?.table?.values(ownName) : undefined;
  const base: SeriesView = own
    ? { name: slot.name, group: '', ...seriesLine(primary!.table!.iterations, own, width, target) }
    : { name: slot.name, group: '', x: [], y: [], total: 0, gaps: 0, last: null, absent: true };
  const lines: RunLine[] = [];
  for (const r of others) {
    const metric = slot.lines.get(r.root);
    const values = metric !== undefined ? r.table?.values(metric) : undefined;
    if (metric !== undefined && values && r.table)
      lines.push({ run: r.root, metric, ...seriesLine(r.table.iterations, values, width, target) });
  }
  const has = withData.filter((r) => slot.lines.has(r.root)).map((r) => r.root);
  return {
    ...base,
    group: metricPrefix(slot.name) || 'other',
    ...(target ? { target: { ...target } } : {}),
    lines,
    ...(has.length < withData.length ? { onlyIn: has } : {}),
  };
}

function unionRange(runs: readonly OverlayRun[]): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const r of runs)
    for (const x of r.table?.iterations ?? []) {
      if (x < min) min = x;
      if (x > max) max = x;
    }
  return min <= max ? { min, max } : null;
}

/** The charts of several runs (the primary first), decimated to about `width` points a line, at most `max` charts (pinned first). */
export function overlayViews(runs: readonly OverlayRun[], width: number, pinned: readonly string[] = [], max?: number): OverlayViews {
  const withData = runs.filter((r) => r.table !== undefined);
  const all = slots(withData);
  const pick = chartSelection(
    all.map((s) => s.name),
    pinned,
    max,
  );
  const charted = new Set(pick.names);
  const series = all.filter((s) => charted.has(s.name)).map((s) => chart(s, runs, withData, width));
  const views: RunView[] = runs.map((r, i) => ({
    root: r.root,
    name: r.name,
    color: r.color,
    primary: i === 0,
    ...(r.problem !== undefined ? { problem: r.problem } : {}),
    onlyHere: withData.length > 1 ? all.filter((s) => s.lines.size === 1 && s.lines.has(r.root)).length : 0,
  }));
  return { series, runs: views, xRange: unionRange(withData), more: pick.more };
}
