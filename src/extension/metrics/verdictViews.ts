/** The dashboard's card targets judged over the whole run and its recomputed twins, from core's report (pure; no vscode). */
import type { FullReport } from '../../core/report/report';
import { judgeMetric } from '../../core/report/targets';
import { TWINS } from '../../core/report/twins';
import type { MetricsTable } from '../../core/log/metricsIndex';
import type { SeriesView } from '../../shared/protocol/metrics';
import type { JudgementView, TwinSeriesView } from '../../shared/protocol/metricsVerdict';

/** A card target's judgement: the one function the report uses, over the whole run; undefined for a metric without a target. */
export function judgementView(metric: string, full: FullReport | undefined, table: MetricsTable): JudgementView | undefined {
  const values = table.values(metric);
  const j = judgeMetric(metric, full?.report, values ? { iterations: table.iterations, values } : undefined);
  if (!j) return undefined;
  return { mark: j.mark, value: j.value, source: j.source, tolerance: j.tolerance, last: j.last, lastIteration: j.lastIteration };
}

/** A logged `ws/` figure's recomputed twin over the report's iterations; undefined for a metric without one or without a report. */
export function twinView(metric: string, full: FullReport | undefined): TwinSeriesView | undefined {
  const t = TWINS.find((x) => x.metric === metric);
  if (!t || !full) return undefined;
  return {
    twin: t.twin,
    x: full.perIteration.map((p) => p.iteration),
    y: full.perIteration.map((p) => p[t.twin]),
    disagreements: full.twinDisagreements
      .filter((d) => d.metric === metric)
      .map((d) => ({ iteration: d.iteration, logged: d.logged, recomputed: d.recomputed })),
  };
}

/** The primary run's series with their judgement and twin added (the overlaid runs' lines as they are). */
export function withVerdict(series: SeriesView[], full: FullReport | undefined, table: MetricsTable): SeriesView[] {
  return series.map((s) => {
    if (s.absent) return s;
    const judgement = judgementView(s.name, full, table);
    const twin = twinView(s.name, full);
    return { ...s, ...(judgement ? { judgement } : {}), ...(twin ? { twin } : {}) };
  });
}
