/**
 * The summary columns of an export, typed: the trajectory table's columns plus the
 * record's task and instruction and its line. CSV writes them as text, Parquet with
 * their types; a value the record or the index does not have (a non-finite number, an
 * absent task id) is null.
 */
import type { TrajectoryRow } from '../log/creditIndex';

/** What a row needs from the record itself (the index does not hold these). */
export interface RecordText {
  taskId: string | null;
  instruction: string | null;
}

export type SummaryType = 'int' | 'float' | 'string' | 'bool';
export type SummaryValue = number | string | boolean | null;

export interface SummaryColumn {
  name: string;
  type: SummaryType;
  get: (r: TrajectoryRow, t: RecordText) => SummaryValue;
}

const finite = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null);

const col = (name: string, type: SummaryType, get: SummaryColumn['get']): SummaryColumn => ({ name, type, get });

/** The columns, in order. */
export const SUMMARY_COLUMNS: readonly SummaryColumn[] = [
  col('iteration', 'int', (r) => finite(r.iteration)),
  col('group', 'int', (r) => finite(r.group)),
  col('rollout', 'int', (r) => finite(r.rollout)),
  col('task_id', 'string', (_, t) => t.taskId),
  col('instruction', 'string', (_, t) => t.instruction),
  col('reward', 'float', (r) => finite(r.reward)),
  col('A', 'float', (r) => finite(r.A)),
  col('labeled', 'bool', (r) => r.labeled),
  col('turns', 'int', (r) => finite(r.turns)),
  col('labeled_turns', 'int', (r) => finite(r.labeledTurns)),
  col('credited_turns', 'int', (r) => finite(r.creditedTurns)),
  col('mean_c', 'float', (r) => finite(r.meanC)),
  col('sign_flips', 'int', (r) => finite(r.signFlips)),
  col('argmax_turns', 'int', (r) => finite(r.argmaxTurns)),
  col('fallback_turns', 'int', (r) => finite(r.fallbackTurns)),
  col('line', 'int', (r) => finite(r.line)),
];
