/** The behaviour tags (docs/format.md section 7) in words: a short label, what it means, and the verb of a comparison's sentence. */
import { formatP, formatPercent } from './format';
import type { TagName } from './shapes';

export interface TagWords {
  /** a few words (chips, legends, headers) */
  label: string;
  /** what the trajectory did, in full (tooltips) */
  meaning: string;
  /** "A <verb> on 4.1% of trajectories" */
  verb: string;
}

export const TAG_WORDS: Readonly<Record<TagName, TagWords>> = {
  repeat: { label: 'repeat', meaning: 'the same action three times in a row (not done, not a scroll)', verb: 'loops' },
  cycle: { label: 'cycle', meaning: 'two actions alternating (click, back, click, back)', verb: 'cycles' },
  truncated: { label: 'truncated', meaning: 'reached the horizon without a done', verb: 'hits the horizon' },
  noDone: { label: 'no done', meaning: 'stopped before the horizon without a done', verb: 'stops without done' },
  earlyDone: { label: 'early done', meaning: 'the first action is done', verb: 'says done at once' },
  falseDone: { label: 'false done', meaning: 'ended with done, but the reward is ≤ 0', verb: 'claims done wrongly' },
  formatFailure: { label: 'format failure', meaning: 'reward < 0', verb: 'fails the format' },
  collapsed: { label: 'collapsed', meaning: 'a credited turn where all K samples agreed (c = 0 by construction)', verb: 'collapses' },
  creditDisagrees: {
    label: 'credit disagrees',
    meaning: 'the mean credit c has the other sign than the outcome (|mean c| ≥ theta)',
    verb: 'has credit against the outcome',
  },
  empty: { label: 'empty', meaning: 'no turns at all', verb: 'has empty trajectories' },
};

/** A tag's two rates and p, as a comparison gives them (docs/format.md section 7). */
export interface TagRates {
  rateA: number | null;
  rateB: number | null;
  p: number | null;
}

/** "p < 0.001", "p = 0.0123". */
export function pPhrase(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${formatP(p)}`;
}

/** One tag in words, the same in the comparison panel and `rlrb compare`: "A loops on 4.1% of trajectories, B on 7.9%, p < 0.001." */
export function behaviourWords(verb: string, t: TagRates, of: string): string {
  if (t.rateA === null && t.rateB === null) return 'Empty: it needs labeled turns (or trajectories in the window), and a run has none.';
  if (t.rateA === null || t.rateB === null) {
    const [has, lacks] = t.rateA !== null ? ['A', 'B'] : ['B', 'A'];
    return `${has} ${verb} on ${formatPercent(t.rateA ?? t.rateB)} of ${of}; ${lacks} has no labeled turns, so no rate and no test.`;
  }
  const p = t.p === null ? 'no p value (neither run has it, or both always do)' : pPhrase(t.p);
  return `A ${verb} on ${formatPercent(t.rateA)} of ${of}, B on ${formatPercent(t.rateB)}, ${p}.`;
}
