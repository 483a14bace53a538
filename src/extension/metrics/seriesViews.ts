/** The dashboard's series from the metrics table (pure; no vscode). */
import type { MetricsTable } from '../../core/log/metricsIndex';
import { metricPrefix } from '../../core/log/metricsIndex';
import { METRIC_TARGETS, meetsTarget } from '../../core/report/targets';
import type { MetricTarget } from '../../core/report/targets';
import type { SeriesView } from '../../shared/protocol/metrics';
import { decimate } from './decimate';

/** Gaps and the last finite value of a whole series, before decimation. */
function scan(xs: readonly number[], values: Float64Array): { gaps: number; last: { x: number; y: number } | null } {
  let gaps = 0;
  let last: { x: number; y: number } | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v)) last = { x: xs[i]!, y: v };
    else gaps++;
  }
  return { gaps, last };
}

function targetFields(
  target: MetricTarget | undefined,
  y: (number | null)[],
  last: { y: number } | null,
): Pick<SeriesView, 'off' | 'lastMeets'> {
  if (!target) return {};
  const off: number[] = [];
  y.forEach((v, i) => {
    if (v !== null && !meetsTarget(target, v)) off.push(i);
  });
  return { off, ...(last ? { lastMeets: meetsTarget(target, last.y) } : {}) };
}

/** The fields of one run's line of a chart: decimated to about `width` points, its gaps, last value and target misses. */
export type LineFields = Omit<SeriesView, 'name' | 'group' | 'target' | 'absent' | 'lines' | 'onlyIn'>;

/** One run's line: decimated (LTTB, gaps kept), gaps counted before decimation, points off the target marked. */
export function seriesLine(xs: readonly number[], values: Float64Array, width: number, target: MetricTarget | undefined): LineFields {
  const d = decimate(xs, values, Math.max(50, Math.round(width)));
  const y = d.y.map((v) => (Number.isFinite(v) ? v : null));
  const { gaps, last } = scan(xs, values);
  return { x: d.x, y, total: xs.length, gaps, last, ...targetFields(target, y, last) };
}

function seriesView(xs: readonly number[], name: string, values: Float64Array, width: number): SeriesView {
  const target = METRIC_TARGETS[name];
  return {
    name,
    group: metricPrefix(name) || 'other',
    ...seriesLine(xs, values, width, target),
    ...(target ? { target: { ...target } } : {}),
  };
}

/**
 * The series `names` (default: every one), each built from the table when asked and decimated to about `width` points (LTTB, gaps
 * kept).
 */
export function seriesViews(t: MetricsTable, width: number, names: readonly string[] = t.names): SeriesView[] {
  const out: SeriesView[] = [];
  for (const name of names) {
    const values = t.values(name);
    if (values) out.push(seriesView(t.iterations, name, values, width));
  }
  return out;
}

/** The x axis of every chart: the first to the last iteration of the table. */
export function xRange(t: MetricsTable): { min: number; max: number } | null {
  const xs = t.iterations;
  if (xs.length === 0) return null;
  return xs.reduce((r, x) => ({ min: Math.min(r.min, x), max: Math.max(r.max, x) }), { min: Infinity, max: -Infinity });
}
