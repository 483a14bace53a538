/** The dashboard's series from the metrics table (pure; no vscode). */
import type { MetricsTable } from '../../core/log/metricsIndex';
import { metricPrefix } from '../../core/log/metricsIndex';
import { METRIC_TARGETS } from '../../core/report/targets';
import type { SeriesView } from '../../shared/protocol/metrics';
import { decimate } from './decimate';

/** Every series, decimated to about `width` points (LTTB, gaps kept). */
export function seriesViews(t: MetricsTable, width: number): SeriesView[] {
  const xs = t.iterations;
  return t.series.map((s) => {
    const d = decimate(xs, s.values, Math.max(50, Math.round(width)));
    const target = METRIC_TARGETS[s.name];
    return {
      name: s.name,
      group: metricPrefix(s.name) || 'other',
      x: d.x,
      y: d.y.map((v) => (Number.isFinite(v) ? v : null)),
      ...(target ? { target } : {}),
    };
  });
}
