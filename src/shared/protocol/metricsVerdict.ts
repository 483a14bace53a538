/** The dashboard's share of the verdict: a card target judged as the report judges it, and a logged figure's recomputed twin. */

/** One card target judged over the whole run (core's judgeMetric), the same mark as the report's. */
export interface JudgementView {
  mark: 'pass' | 'near' | 'fail' | 'none';
  /** the figure judged: the report's whole-run figure, else the mean of the logged values */
  value: number | null;
  source: 'report' | 'logged mean' | 'none';
  /** the rule, in words */
  tolerance: string;
  last: number | null;
  lastIteration: number | null;
}

/** A logged mechanism figure's recomputed per-iteration twin (report perIteration), and where the two differ. */
export interface TwinSeriesView {
  /** the report's key of the figure (perIteration) */
  twin: string;
  x: number[];
  y: (number | null)[];
  /** every iteration where the logged and the recomputed value differ by more than 1e-6 */
  disagreements: { iteration: number; logged: number; recomputed: number }[];
}
