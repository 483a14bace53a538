/** The comparison's verdict (docs/format.md section 8): the runs paired by checkpoint and task, as the page draws it. */

/** What an entry's interval lets one conclude: above 0, below 0, or neither. */
export type VerdictConclusion = 'better' | 'worse' | 'inconclusive';

/** The figures at one common checkpoint, or pooled over all of them (iteration null). */
export interface VerdictFiguresView {
  iteration: number | null;
  tasks: number;
  successA: number | null;
  successB: number | null;
  /** mean of A's task success minus B's */
  meanDiff: number | null;
  /** its 95% interval; null with fewer than 2 tasks */
  lo: number | null;
  hi: number | null;
  p: number | null;
  wins: number;
  losses: number;
  ties: number;
  signTestP: number | null;
  conclusion: VerdictConclusion;
  /** the conclusion in the verdict's words ("Inconclusive", "A better than B") */
  verdict: string;
  /** the smallest difference these tasks would detect at 80% power; null below two tasks */
  mde80: number | null;
}

/** One task at the chosen checkpoint. */
export interface VerdictTaskView {
  task: string;
  successA: number | null;
  successB: number | null;
  diff: number | null;
  episodesA: number;
  episodesB: number;
}

/** The per-task table of one common checkpoint. */
export interface VerdictTasksView {
  iteration: number;
  rows: VerdictTaskView[];
}

export interface VerdictView {
  /** false when either run has no evaluation log: `missing` says which file would make it possible */
  available: boolean;
  missing: string;
  perIteration: VerdictFiguresView[];
  final: VerdictFiguresView | null;
  pooled: VerdictFiguresView | null;
  /** the final checkpoint's conclusion (the headline's colour); null without a common checkpoint */
  conclusion: VerdictConclusion | null;
  /** final and pooled conclude differently: the page says both as the headline */
  disagree: boolean;
  /** the final checkpoint and the pooled figure in words, each leading with its conclusion */
  finalWords: string;
  pooledWords: string;
  /** the common checkpoints, the last first: the choices of the per-task table */
  checkpoints: number[];
  /**
   * the per-task table of one checkpoint only (the last, or the one the page asked for last);
   * the host keeps the others and answers `compare/queryVerdictTasks` with one (null without a common checkpoint)
   */
  tasks: VerdictTasksView | null;
}

export const NO_VERDICT: VerdictView = {
  available: false,
  missing: '',
  perIteration: [],
  final: null,
  pooled: null,
  conclusion: null,
  disagree: false,
  finalWords: '',
  pooledWords: '',
  checkpoints: [],
  tasks: null,
};
