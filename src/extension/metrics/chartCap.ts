/** Which metrics one dashboard charts when a log has more than it can show (pure; no vscode). */
import { METRIC_TARGETS } from '../../core/report/targets';
import { MAX_CHARTS } from '../../shared/moreMetrics';

export interface ChartSelection {
  /** the names charted, in the order given */
  names: string[];
  /** how many names were left out */
  more: number;
}

/** The pinned metrics and those with a card target always, then the others in the order given, up to `max` in all. */
export function chartSelection(names: readonly string[], pinned: readonly string[], max = MAX_CHARTS): ChartSelection {
  if (names.length <= max) return { names: [...names], more: 0 };
  const pins = new Set(pinned);
  const keep = new Set(names.filter((n) => pins.has(n) || METRIC_TARGETS[n] !== undefined));
  for (const n of names) {
    if (keep.size >= max) break;
    keep.add(n);
  }
  return { names: names.filter((n) => keep.has(n)), more: names.length - keep.size };
}
