import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareEvaluations } from '../../src/core/eval/evalFigures';
import type { EvalOutcome } from '../../src/core/eval/evalFigures';
import { evalTaskRows } from '../../src/core/eval/evalTasks';
import { differenceWords, missingWords, verdictView } from '../../src/extension/compare/verdictViews';

const ep = (iteration: number, task: string, ...rewards: number[]): EvalOutcome[] => rewards.map((reward) => ({ iteration, task, reward }));

/*
 * By hand, iteration 9: A t1 [1, 0] = 0.5, t2 [1, 1] = 1, t3 [0, 0] = 0; B t1 [0, 0] = 0, t2 [1, 0] = 0.5, t3 [0] = 0, t4 [1] (B only).
 * Pairs (0.5, 0), (1, 0.5), (0, 0): diffs 0.5, 0.5, 0: mean 1/3, sd sqrt(1/12), se 1/6, t = 2, p = 0.0455,
 * CI 1/3 -+ 1.959964 / 6 = [0.006673, 0.659994]; A better on 2, B on 0, 1 tied. Iteration 19 is A's only: not common.
 */
const A = [...ep(9, 't1', 1, 0), ...ep(9, 't2', 1, 1), ...ep(9, 't3', 0, 0), ...ep(19, 't1', 1)];
const B = [...ep(9, 't1', 0, 0), ...ep(9, 't2', 1, 0), ...ep(9, 't3', 0), ...ep(9, 't4', 1)];

test('the verdict view: the final checkpoint and the pooled figure in words, the interval, the per-task rows', () => {
  const v = verdictView(compareEvaluations(A, B), A, B);
  assert.equal(v.available, true);
  assert.equal(
    v.finalWords,
    'At iteration 9, on the same 3 tasks, A solves 33.3 points more (95% CI 0.7 to 66.0), p = 0.0455; A better on 2 tasks, B on 0, 1 tied.',
  );
  assert.equal(
    v.pooledWords,
    'Pooled over the one common checkpoint (3 checkpoint-task pairs), A solves 33.3 points more (95% CI 0.7 to 66.0), p = 0.0455; ' +
      'A better on 2 tasks, B on 0, 1 tied.',
  );
  assert.equal(v.perIteration.length, 1);
  const f = v.final!;
  assert.equal(f.iteration, 9);
  assert.equal(f.tasks, 3);
  assert.ok(Math.abs(f.meanDiff! - 1 / 3) < 1e-12);
  assert.ok(Math.abs(f.lo! - 0.006673) < 1e-6 && Math.abs(f.hi! - 0.659994) < 1e-6, `${f.lo} ${f.hi}`);
  assert.deepEqual([f.wins, f.losses, f.ties], [2, 0, 1]);
  assert.equal(v.pooled!.iteration, null);
  assert.deepEqual(
    v.tasksAt.map((t) => t.iteration),
    [9],
  );
  assert.deepEqual(v.tasksAt[0]!.rows, [
    { task: 't1', successA: 0.5, successB: 0, diff: 0.5, episodesA: 2, episodesB: 2 },
    { task: 't2', successA: 1, successB: 0.5, diff: 0.5, episodesA: 2, episodesB: 2 },
    { task: 't3', successA: 0, successB: 0, diff: 0, episodesA: 2, episodesB: 1 },
    { task: 't4', successA: null, successB: 1, diff: null, episodesA: 0, episodesB: 1 },
  ]);
});

test('B ahead reads "fewer" with a negative interval; one task has no interval; none says so', () => {
  const e = compareEvaluations(B, A)!;
  assert.match(
    differenceWords(e.pooled),
    /^A solves 33\.3 points fewer \(95% CI -66\.0 to -0\.7\), p = 0\.0455; A better on 0 tasks, B on 2, 1 tied\.$/,
  );
  const one = compareEvaluations(ep(1, 'x', 1), ep(1, 'x', 0))!;
  assert.equal(
    differenceWords(one.pooled),
    'A solves 100.0 points more (no interval: fewer than 2 tasks), no p value (every task has the same difference); A better on 1 task, B on 0, 0 tied.',
  );
  const none = compareEvaluations(ep(1, 'x', 1), ep(2, 'x', 0))!;
  const v = verdictView(none, ep(1, 'x', 1), ep(2, 'x', 0));
  assert.equal(v.finalWords, 'The runs evaluated no checkpoint in common: no verdict.');
  assert.equal(v.pooled, null);
  assert.deepEqual(v.tasksAt, []);
});

test('without an evaluation log, one line names the run and the file that would make the verdict possible', () => {
  const v = verdictView(compareEvaluations(A, undefined), A, undefined);
  assert.equal(v.available, false);
  assert.match(v.missing, /^Run B has no evaluation log: .* A file logs\/eval_log\.jsonl in the run \(run-format section 8/);
  assert.match(missingWords(false, false), /^Neither run has an evaluation log/);
  assert.match(missingWords(false, true), /^Run A has no evaluation log/);
});

test('evalTaskRows: a checkpoint neither run evaluated has no rows', () => {
  assert.deepEqual(evalTaskRows(A, B, 44), []);
  assert.deepEqual(
    evalTaskRows(A, B, 19).map((r) => [r.task, r.successA, r.successB]),
    [['t1', 1, null]],
  );
});
