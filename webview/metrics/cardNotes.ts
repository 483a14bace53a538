/**
 * What a metric card says about where its line comes from (pure: no DOM). A card diagnostic the metrics log lacks is
 * charted from the report's recomputed twin and labelled so; a series with no finite value says so instead of a mark.
 */
import type { SeriesView } from '../../src/shared/protocol/metrics';

/** The label of a recomputed line, in the chart's legend and on the card. */
export const RECOMPUTED = 'recomputed from the credit log';

/** The card's note on its line's source: '' for a logged line. */
export function sourceNote(s: SeriesView): string {
  if (s.noFiniteValue) return 'no finite value logged: every row lacks it or holds NaN / Infinity, so nothing is judged';
  if (!s.recomputed) return '';
  const why = s.recomputed.why === 'not logged' ? 'the metrics log does not log it' : 'the metrics log has no finite value of it';
  return `${RECOMPUTED} (${s.recomputed.twin}): ${why}`;
}

/** The card title's tag: '' for a logged line. */
export function titleTag(s: SeriesView): string {
  return s.recomputed ? RECOMPUTED : s.noFiniteValue ? 'no finite value logged' : '';
}

/** A card is judged only when some value stands behind the judgement. */
export function judged(s: SeriesView): boolean {
  return s.judgement !== undefined && !s.noFiniteValue;
}
