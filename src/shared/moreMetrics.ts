/** The dashboard's cap on charts and the line that says what it left out (host and page). */

/** A dashboard charts at most this many metrics; the rest are counted on its "N more metrics" line. */
export const MAX_CHARTS = 200;

/** The line for `more` metrics left out (empty when none were). */
export function moreMetricsLine(more: number): string {
  if (more <= 0) return '';
  const what = `${more} more metric${more === 1 ? '' : 's'} not charted`;
  return `${what}: a dashboard charts at most ${MAX_CHARTS} (pinned ones and card targets first, then in order)`;
}
