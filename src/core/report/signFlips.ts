/** The sign flips explained (docs/format.md section 4): every group holding a sign-flipped turn, with its rewards and min|A|. */
import type { CreditIndex } from '../log/creditIndex';

export interface SignFlipGroup {
  iteration: number;
  group: number;
  /** its sign-flipped turns */
  flips: number;
  /** the group's rewards by rollout (null where not finite) */
  rewards: (number | null)[];
  /** the smallest non-zero |A| in the group; null when every A is 0 or not finite */
  minAbsA: number | null;
  /** some reward is negative (a format failure) */
  formatFailure: boolean;
}

function flipGroupOf(index: CreditIndex, rows: readonly number[]): SignFlipGroup | undefined {
  const c = index.columns;
  let flips = 0;
  for (const r of rows) flips += c.signFlips[r]!;
  if (flips === 0) return undefined;
  const byRollout = [...rows].sort((a, b) => c.rollout[a]! - c.rollout[b]! || a - b);
  const rewards = byRollout.map((r) => (Number.isFinite(c.reward[r]!) ? c.reward[r]! : null));
  const absA = rows.map((r) => Math.abs(c.A[r]!)).filter((a) => Number.isFinite(a) && a > 0);
  return {
    iteration: c.iteration[rows[0]!]!,
    group: c.group[rows[0]!]!,
    flips,
    rewards,
    minAbsA: absA.length > 0 ? Math.min(...absA) : null,
    formatFailure: rewards.some((r) => r !== null && r < 0),
  };
}

/** Ordered by iteration, then group. `groups`: `iteration:group` -> its rows. */
export function signFlipGroups(index: CreditIndex, groups: ReadonlyMap<string, readonly number[]>): SignFlipGroup[] {
  const out: SignFlipGroup[] = [];
  for (const rows of groups.values()) {
    const g = flipGroupOf(index, rows);
    if (g) out.push(g);
  }
  return out.sort((a, b) => a.iteration - b.iteration || a.group - b.group);
}

/** What the sign-flip groups say together, for the report's one line; undefined without flips. */
export interface SignFlipSummary {
  flips: number;
  groups: number;
  /** every flip is in a group with a negative reward */
  allFormatFailure: boolean;
  /** ... and in each of those groups min|A| < beta */
  allBelowBeta: boolean;
}

export function summarizeSignFlips(groups: readonly SignFlipGroup[], beta: number): SignFlipSummary | undefined {
  if (groups.length === 0) return undefined;
  const allFormatFailure = groups.every((g) => g.formatFailure);
  return {
    flips: groups.reduce((s, g) => s + g.flips, 0),
    groups: groups.length,
    allFormatFailure,
    allBelowBeta: allFormatFailure && groups.every((g) => g.minAbsA !== null && g.minAbsA < beta),
  };
}

/** The one line of the report when every flip sits in a format-failure group; undefined otherwise. */
export function signFlipLine(s: SignFlipSummary | undefined): string | undefined {
  if (!s?.allFormatFailure) return undefined;
  const all = `all ${s.flips} sign flip${s.flips === 1 ? ' is' : 's are'} in groups with a -1 reward`;
  return s.allBelowBeta ? `${all}, where min|A| < beta: the card's guarantee assumes binary rewards` : all;
}
