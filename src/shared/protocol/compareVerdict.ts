/** The comparison's verdict (run-format.md section 8): the runs paired by checkpoint and task, as the page draws it. */

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

export interface VerdictView {
  /** false when either run has no evaluation log: `missing` says which file would make it possible */
  available: boolean;
  missing: string;
  perIteration: VerdictFiguresView[];
  final: VerdictFiguresView | null;
  pooled: VerdictFiguresView | null;
  /** the final checkpoint and the pooled figure in words */
  finalWords: string;
  pooledWords: string;
  /** the per-task table of each common checkpoint, the last one first shown */
  tasksAt: { iteration: number; rows: VerdictTaskView[] }[];
}

export const NO_VERDICT: VerdictView = {
  available: false,
  missing: '',
  perIteration: [],
  final: null,
  pooled: null,
  finalWords: '',
  pooledWords: '',
  tasksAt: [],
};
