/** The card's checks of docs/format.md section 10 on one iteration's recomputed twins (section 4). */
import type { AlertEvent } from './liveEvent';

export const FALLBACK_LIMIT = 0.05;
export const MEAN_C_LIMIT = 0.03;
/** chance: one of the K = 5 candidates is the executed one */
export const ARGMAX_CHANCE = 0.2;
/** the mean c is taken over this many iterations, the new one and those before it */
export const MEAN_C_WINDOW = 5;

/** What the checks read of one iteration. */
export interface AlertInput {
  iteration: number;
  signFlipRate: number | null;
  fallbackRate: number | null;
  executedIsArgmaxRate: number | null;
  /** the argmax rate's credited turns */
  creditedTurns: number;
  /** mean logged c over the credited turns of the window's iterations; null when they have none */
  windowMeanC: number | null;
  /** logged `ws/` figures that differ from their twin by more than 1e-6, in section 5's order */
  disagreements: readonly { metric: string; logged: number; recomputed: number }[];
}

/** Half the width of the argmax band: three binomial standard deviations at chance for `n` turns. */
export const argmaxHalfWidth = (n: number): number => 3 * Math.sqrt((ARGMAX_CHANCE * (1 - ARGMAX_CHANCE)) / n);

/** The iteration's alerts, in the order signFlip, fallback, argmax, meanC, loggedDisagrees. */
export function iterationAlerts(x: AlertInput): AlertEvent[] {
  const out: AlertEvent[] = [];
  const alert = (check: AlertEvent['check'], value: number, limit: number): void => {
    out.push({ type: 'alert', iteration: x.iteration, check, value, limit });
  };
  if (x.signFlipRate !== null && x.signFlipRate > 0) alert('signFlip', x.signFlipRate, 0);
  if (x.fallbackRate !== null && x.fallbackRate >= FALLBACK_LIMIT) alert('fallback', x.fallbackRate, FALLBACK_LIMIT);
  if (x.executedIsArgmaxRate !== null && x.creditedTurns > 0) {
    const half = argmaxHalfWidth(x.creditedTurns);
    if (Math.abs(x.executedIsArgmaxRate - ARGMAX_CHANCE) > half) alert('argmax', x.executedIsArgmaxRate, half);
  }
  if (x.windowMeanC !== null && Math.abs(x.windowMeanC) >= MEAN_C_LIMIT) alert('meanC', x.windowMeanC, MEAN_C_LIMIT);
  for (const d of x.disagreements)
    out.push({ type: 'alert', iteration: x.iteration, check: 'loggedDisagrees', value: d.logged, limit: d.recomputed, field: d.metric });
  return out;
}
