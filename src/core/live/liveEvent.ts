/** The events of a live run (docs/format.md section 10): one JSON object each, the same on every surface. */

/** The card's checks, in the order an iteration's alerts are given. */
export const ALERT_CHECKS = ['signFlip', 'fallback', 'argmax', 'meanC', 'loggedDisagrees'] as const;
export type AlertCheck = (typeof ALERT_CHECKS)[number];

export type CheckpointKind = 'resume' | 'hf';

export interface IterationEvent {
  type: 'iteration';
  iteration: number;
  trajectories: number;
  /** mean reward over the iteration's trajectories with a finite reward; null when none has one */
  reward: number | null;
}

export interface CheckpointEvent {
  type: 'checkpoint';
  iteration: number;
  kind: CheckpointKind;
}

export interface EvaluationEvent {
  type: 'evaluation';
  iteration: number;
  tasks: number;
  success: number;
}

export interface AlertEvent {
  type: 'alert';
  iteration: number;
  check: AlertCheck;
  /** the iteration's figure (the 5-iteration mean for `meanC`; the logged figure for `loggedDisagrees`) */
  value: number;
  /** the bound crossed (the recomputed twin for `loggedDisagrees`) */
  limit: number;
  /** `loggedDisagrees` only: the metrics log's field */
  field?: string;
}

export interface StaleEvent {
  type: 'stale';
  /** when the last new iteration was seen (ms since the epoch; the first watch when none was) */
  since: number;
  /** how long the run has been quiet, and the quiet it was allowed (ms) */
  quietMs: number;
  limitMs: number;
}

export type LiveEvent = IterationEvent | CheckpointEvent | EvaluationEvent | AlertEvent | StaleEvent;

/** Whether `--once` exits 1 for this event. */
export const isWarning = (e: LiveEvent): boolean => e.type === 'alert' || e.type === 'stale';
