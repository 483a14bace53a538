/**
 * The verdict of docs/format.md section 8: what a paired difference lets one conclude, and the
 * smallest difference its tasks could have shown. The one place that decides it; every view
 * states what this says (in the words of verdictWords.ts).
 */

/** A better than B, worse, or neither shown by the data. */
export type Conclusion = 'better' | 'worse' | 'inconclusive';

/** The normal 97.5% quantile (section 8). */
export const Z95 = 1.959963984540054;
/** The normal 80% quantile: the power term of mde80. */
export const Z80 = 0.8416212335729143;

/** "better" when the interval lies above 0, "worse" when below, else (also without an interval) "inconclusive". */
export function conclusionOf(ci95: readonly [number, number] | null): Conclusion {
  if (ci95 === null) return 'inconclusive';
  if (ci95[0] > 0) return 'better';
  if (ci95[1] < 0) return 'worse';
  return 'inconclusive';
}

/** `(z + z80) * sd / sqrt(n)`: the difference n tasks would detect at 80% power; null below two tasks. */
export function mde80(sd: number | null, n: number): number | null {
  if (sd === null || n < 2) return null;
  return ((Z95 + Z80) * sd) / Math.sqrt(n);
}

/** What the verdict rests on: the final checkpoint's conclusion, and whether the pooled figure says otherwise. */
export interface VerdictDecision {
  /** null when the runs evaluated no checkpoint in common */
  final: Conclusion | null;
  pooled: Conclusion | null;
  /** final and pooled conclude differently: both must be said */
  disagree: boolean;
}

/** The verdict over section 8's `final` and `pooled` entries (their `conclusion`s). */
export function decideVerdict(
  final: { conclusion: Conclusion } | null,
  pooled: { conclusion: Conclusion; tasks: number } | null,
): VerdictDecision {
  const f = final?.conclusion ?? null;
  const p = pooled && pooled.tasks > 0 ? pooled.conclusion : null;
  return { final: f, pooled: p, disagree: f !== null && p !== null && f !== p };
}
