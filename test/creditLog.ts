/** A hand-worked credit log for the credit diagnostics (its figures in the comment below), and a run folder holding it. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, tempDir } from './helpers';
import { labeledRecord } from './fixtures';

/** A labeled trajectory whose turns carry these c (K = 2: scores [20c, 0], so the recomputed c equals it; beta 0.4). */
function traj(iteration: number, group: number, rollout: number, reward: number, A: number, cs: number[]): Record<string, unknown> {
  return labeledRecord(
    { iteration, group, rollout, reward, A, instruction: `task ${iteration}.${group}` },
    cs.map((c) => ({ action: 'wait()', scores: [20 * c, 0], same: [true, false], c, A_t: A + 0.4 * c })),
  );
}

/**
 * Worked by hand (beta 0.4). Trajectory-mean c of each labeled trajectory, none on a bin edge:
 * iteration 0, group 0 (rewards 1, 0, 0; the third unlabeled): succeeded 0.45, failed -0.25 -> diff 0.7
 * iteration 0, group 1 (rewards 1, 1, 0): succeeded 0.15 and 0.35 (mean 0.25), failed mean(0.25, 0.05) = 0.15 -> diff 0.1
 * iteration 1, group 0 (rewards 1, -1): succeeded -0.45, failed 0.95 -> diff -1.4
 * iteration 1, group 1 (rewards 0, 0): not mixed, in no figure of the gate or the histogram
 */
export const LOG: readonly Record<string, unknown>[] = [
  traj(0, 0, 0, 1, 1, [0.5, 0.4]),
  traj(0, 0, 1, 0, -0.5, [-0.25]),
  { iteration: 0, group: 0, rollout: 2, reward: 0, A: -0.5, turns: [{ action: 'wait()', A_t: -0.5 }] },
  traj(0, 1, 0, 1, 0.5, [0.15]),
  traj(0, 1, 1, 1, 0.5, [0.35]),
  traj(0, 1, 2, 0, -1, [0.25, 0.05]),
  traj(1, 0, 0, 1, 1, [-0.45]),
  traj(1, 0, 1, -1, -1, [0.95]),
  traj(1, 1, 0, 0, 0, [0.75]),
  traj(1, 1, 1, 0, 0, []),
];

/** A run folder whose credit log holds `records`. */
export function runFolder(records: readonly Record<string, unknown>[]): string {
  const root = join(tempDir(), 'run');
  mkdirSync(join(root, 'logs'), { recursive: true });
  writeFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), jsonl(records));
  return root;
}
