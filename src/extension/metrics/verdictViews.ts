/** The dashboard's card targets judged over the whole run and its recomputed twins, from core's report (pure; no vscode). */
import type { FullReport } from '../../core/report/report';
import { judgeMetric } from '../../core/report/targets';
import { TWINS } from '../../core/report/twins';
import type { MetricsTable } from '../../core/log/metricsIndex';
import { metricPrefix } from '../../core/log/metricsIndex';
import { METRIC_TARGETS } from '../../core/report/targets';
import { seriesLine } from './seriesViews';
import type { SeriesView } from '../../shared/protocol/metrics';
import type { JudgementView, TwinSeriesView } from '../../shared/protocol/metricsVerdict';

/** A card target's judgement: the one function the report uses, over the whole run; undefined for a metric without a target. */
export function judgementView(metric: string, full: FullReport | undefined, table: MetricsTable): JudgementView | undefined {
  const values = table.values(metric);
  const j = judgeMetric(metric, full?.report, values ? { iterations: table.iterations, values } : undefined);
  if (!j) return undefined;
  return { mark: j.mark, value: j.value, source: j.source, tolerance: j.tolerance, last: j.last, lastIteration: j.lastIteration };
}

/**
 * A logged `ws/` figure's recomputed twin over the report's iterations, its line decimated to about `width` points as the logged
 * one is (LTTB, gaps kept; every disagreement listed whole); undefined for a metric without one or without a report.
 */
export function twinView(metric: string, full: FullReport | undefined, width = 600): TwinSeriesView | undefined {
  const t = TWINS.find((x) => x.metric === metric);
  if (!t || !full) return undefined;
  const values = Float64Array.from(full.perIteration, (p) => p[t.twin] ?? Number.NaN);
  const { x, y } = seriesLine(
    full.perIteration.map((p) => p.iteration),
    values,
    width,
    undefined,
  );
  return {
    twin: t.twin,
    x,
    y,
    disagreements: full.twinDisagreements
      .filter((d) => d.metric === metric)
      .map((d) => ({ iteration: d.iteration, logged: d.logged, recomputed: d.recomputed })),
  };
}

/**
 * A card diagnostic charted from its recomputed twin (report section 4's per-iteration figure), for a run whose metrics log
 * does not log it (`not logged`) or logs no finite value of it (`no finite value logged`); undefined without a report or a
 * finite twin value.
 */
export function recomputedSeries(
  metric: string,
  full: FullReport | undefined,
  width: number,
  why: 'not logged' | 'no finite value logged',
): SeriesView | undefined {
  const t = TWINS.find((x) => x.metric === metric);
  if (!t || !full) return undefined;
  const xs = full.perIteration.map((p) => p.iteration);
  const values = Float64Array.from(full.perIteration, (p) => p[t.twin] ?? Number.NaN);
  if (!values.some((v) => Number.isFinite(v))) return undefined;
  const target = METRIC_TARGETS[metric];
  return {
    name: metric,
    group: metricPrefix(metric) || 'other',
    ...seriesLine(xs, values, width, target),
    ...(target ? { target: { ...target } } : {}),
    recomputed: { twin: t.twin, why },
  };
}

/**
 * The primary run's series with their judgement and twin added (the overlaid runs' lines as they are); a diagnostic with no
 * finite logged value is charted from its twin instead, or says so, never judged; one not logged at all is added from its twin.
 */
export function withVerdict(series: SeriesView[], full: FullReport | undefined, table: MetricsTable, width = 600): SeriesView[] {
  const out = series.map((s): SeriesView => {
    if (s.absent) return s;
    const logged = table.values(s.name);
    if (logged && !logged.some((v) => Number.isFinite(v))) {
      const rec = recomputedSeries(s.name, full, width, 'no finite value logged');
      if (!rec) return { ...s, noFiniteValue: true };
      const judgement = judgementView(s.name, full, table);
      return { ...rec, ...(s.lines ? { lines: s.lines } : {}), ...(judgement ? { judgement } : {}) };
    }
    const judgement = judgementView(s.name, full, table);
    const twin = twinView(s.name, full, width);
    return { ...s, ...(judgement ? { judgement } : {}), ...(twin ? { twin } : {}) };
  });
  const named = new Set(series.map((s) => s.name));
  for (const t of TWINS) {
    if (named.has(t.metric) || table.values(t.metric)) continue;
    const rec = recomputedSeries(t.metric, full, width, 'not logged');
    const judgement = judgementView(t.metric, full, table);
    if (rec) out.push({ ...rec, ...(judgement ? { judgement } : {}) });
  }
  return out;
}
