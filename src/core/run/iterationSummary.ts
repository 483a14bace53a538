/** A run's iterations as the run tree lists them: trajectories, labeled ones, mean reward, rows by group. */
import type { CreditIndex } from '../log/creditIndex';
import { Flag } from '../../shared/shapes';

export interface IterationSummary {
  iteration: number;
  trajectories: number;
  labeled: number;
  rewardMean: number | null;
  /** group -> rows in rollout order */
  groups: Map<number, number[]>;
}

/** Groups the index by iteration and group (one pass; cached by the caller per index size). */
export function summarizeIterations(index: CreditIndex): Map<number, IterationSummary> {
  const c = index.columns;
  const out = new Map<number, IterationSummary & { rewardSum: number; rewardN: number }>();
  for (let i = 0; i < index.size; i++) {
    const it = c.iteration[i]!;
    let s = out.get(it);
    if (!s) {
      s = { iteration: it, trajectories: 0, labeled: 0, rewardMean: null, groups: new Map(), rewardSum: 0, rewardN: 0 };
      out.set(it, s);
    }
    s.trajectories++;
    if ((c.flags[i]! & Flag.Labeled) !== 0) s.labeled++;
    if (Number.isFinite(c.reward[i]!)) {
      s.rewardSum += c.reward[i]!;
      s.rewardN++;
    }
    const g = s.groups.get(c.group[i]!);
    if (g) g.push(i);
    else s.groups.set(c.group[i]!, [i]);
  }
  for (const s of out.values()) {
    s.rewardMean = s.rewardN > 0 ? s.rewardSum / s.rewardN : null;
    for (const rows of s.groups.values()) rows.sort((a, b) => c.rollout[a]! - c.rollout[b]!);
  }
  return out;
}
