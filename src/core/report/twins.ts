/**
 * The metrics log's `ws/` figures of docs/format.md section 5 against their recomputed
 * per-iteration twins of section 4: a logged figure that differs by more than 1e-6 is a finding.
 */
import type { MetricsTable } from '../log/metricsIndex';

/** The per-iteration figure of section 4 that `rlrb report --json` prints in `perIteration`. */
export type TwinKey = 'signFlipRate' | 'fallbackRate' | 'executedIsArgmaxRate' | 'meanC' | 'rmsBetaCOverRmsA' | 'gateMeanDiff';

/** Logged metric -> its recomputed twin. */
export const TWINS: readonly { metric: string; twin: TwinKey }[] = [
  { metric: 'ws/sign_flip_rate', twin: 'signFlipRate' },
  { metric: 'ws/fallback_rate', twin: 'fallbackRate' },
  { metric: 'ws/executed_is_argmax', twin: 'executedIsArgmaxRate' },
  { metric: 'ws/c_mean', twin: 'meanC' },
  { metric: 'ws/rms_beta_c_over_rms_A', twin: 'rmsBetaCOverRmsA' },
  { metric: 'ws/gate_mean_diff', twin: 'gateMeanDiff' },
];

export const TWIN_TOLERANCE = 1e-6;

/** What the comparison reads of a per-iteration entry of the report. */
export type TwinFigures = { iteration: number } & Readonly<Record<TwinKey, number | null>>;

export interface TwinDisagreement {
  iteration: number;
  metric: string;
  logged: number;
  recomputed: number;
}

/**
 * Per iteration (in order), then in the order of `TWINS`: every logged finite figure whose
 * twin is defined there and differs from it by more than 1e-6. A gap on either side is not compared.
 */
export function twinDisagreements(perIteration: readonly TwinFigures[], metrics: MetricsTable): TwinDisagreement[] {
  const rowOf = new Map(metrics.iterations.map((it, i) => [it, i]));
  const series = TWINS.map((t) => ({ ...t, values: metrics.values(t.metric) }));
  const out: TwinDisagreement[] = [];
  for (const p of perIteration) {
    const row = rowOf.get(p.iteration);
    if (row === undefined) continue;
    for (const s of series) {
      const logged = s.values?.[row];
      const recomputed = p[s.twin];
      if (logged === undefined || !Number.isFinite(logged) || recomputed === null) continue;
      if (Math.abs(logged - recomputed) > TWIN_TOLERANCE) out.push({ iteration: p.iteration, metric: s.metric, logged, recomputed });
    }
  }
  return out;
}
