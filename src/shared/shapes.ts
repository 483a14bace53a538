/**
 * The shapes the engine and the wire share, declared once: data-only `as const` values and
 * the types derived from them (no import, no function). The one module of src/shared that
 * src/core may import (eslint.config.mjs, test/unit/architecture.test.ts); core's query, flags
 * and report figures and the webview protocol's are these, so the two cannot drift apart.
 */

/** The columns the trajectory table sorts by. */
export const SORT_KEYS = [
  'iteration',
  'group',
  'rollout',
  'reward',
  'A',
  'labeled',
  'turns',
  'meanC',
  'signFlips',
  'argmaxTurns',
  'fallbackTurns',
  'flags',
] as const;

export type SortKey = (typeof SORT_KEYS)[number];

/** The reward filter: success (reward > 0), failure, or a format failure (docs/format.md). */
export const REWARD_FILTERS = ['success', 'failure', 'format'] as const;

export type RewardFilter = (typeof REWARD_FILTERS)[number];

/** The bits of a trajectory's `flags` (the index's column, the filter's `flags`). */
export const Flag = {
  SignFlip: 1,
  Argmax: 2,
  Fallback: 4,
  Masked: 8,
  CMismatch: 16,
  ATMismatch: 32,
  SameMismatch: 64,
  Labeled: 128,
  DoneCandidate: 256,
  MissingFields: 512,
} as const;

/** The behaviour tags of docs/format.md section 7, in the order of their bits. */
export const TAG_NAMES = [
  'repeat',
  'cycle',
  'truncated',
  'noDone',
  'earlyDone',
  'falseDone',
  'formatFailure',
  'collapsed',
  'creditDisagrees',
  'empty',
] as const;

export type TagName = (typeof TAG_NAMES)[number];

/** The table's filter: every field that is set must hold. */
export interface TrajectoryFilter {
  iterationMin?: number;
  iterationMax?: number;
  group?: number;
  rollout?: number;
  reward?: RewardFilter;
  labeledOnly?: boolean;
  /** every bit set here must be set on the row (`Flag`) */
  flags?: number;
  /** only rows of the gate's mixed-group pairs */
  gate?: boolean;
  /** case-insensitive text in the record */
  text?: string;
  /** `tag:`: every tag named here must hold (docs/format.md section 7, with the index's horizon and theta) */
  tags?: readonly TagName[];
  /** the source: the eval episodes of this checkpoint (docs/format.md section 8) instead of the training rollouts */
  evalIteration?: number;
  /** with `evalIteration`: only this task's episodes */
  evalTask?: string;
}

export interface TrajectorySort {
  key: SortKey;
  descending?: boolean;
}

/** A filter and its sort keys: what a jump opens, what the browser shows, what the engine runs. */
export interface TrajectoryQuery {
  filter: TrajectoryFilter;
  sort: TrajectorySort[];
}

/** The gate of docs/format.md section 4. */
export interface GateFigures {
  groups: number;
  meanDiff: number | null;
  t: number | null;
  p: number | null;
  iterations: number;
  iterationsPositive: number;
  signTestP: number | null;
  firstHalfMeanDiff: number | null;
  secondHalfMeanDiff: number | null;
}

/** Every figure of the run report, section 4: exactly the keys that `rlrb report --json` prints. */
export interface ReportFigures {
  signFlipRate: number | null;
  fallbackRate: number | null;
  executedIsArgmaxRate: number | null;
  meanC: number | null;
  rmsBetaCOverRmsA: number | null;
  cMismatches: number;
  aTMismatches: number;
  gate: GateFigures;
  auroc: number | null;
  trajectories: number;
  iterations: number;
  labeledTurns: number;
  creditedTurns: number;
  skippedLines: number;
  warnings: string[];
}
