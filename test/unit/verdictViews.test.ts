import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareEvaluations } from '../../src/core/eval/evalFigures';
import type { EvalOutcome } from '../../src/core/eval/evalFigures';
import { EvalTaskTables, evalTaskRows } from '../../src/core/eval/evalTasks';
import { heldVerdict, missingWords, verdictTasks, verdictView, verdictViewAt } from '../../src/extension/compare/verdictViews';
import { parseCompareMessage } from '../../src/shared/protocol/compare';

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
  assert.equal(v.finalWords, 'A better than B at iteration 9: A − B = +33.3 points, 95% CI +0.7 to +66.0 (p = 0.046), on 3 tasks.');
  assert.equal(
    v.pooledWords,
    'A better than B pooled over the one common checkpoint: A − B = +33.3 points, 95% CI +0.7 to +66.0 (p = 0.046), on 3 checkpoint-task pairs.',
  );
  assert.equal(v.conclusion, 'better');
  assert.equal(v.disagree, false);
  assert.equal(v.perIteration.length, 1);
  const f = v.final!;
  assert.equal(f.iteration, 9);
  assert.equal(f.tasks, 3);
  assert.ok(Math.abs(f.meanDiff! - 1 / 3) < 1e-12);
  assert.ok(Math.abs(f.lo! - 0.006673) < 1e-6 && Math.abs(f.hi! - 0.659994) < 1e-6, `${f.lo} ${f.hi}`);
  assert.deepEqual([f.wins, f.losses, f.ties], [2, 0, 1]);
  assert.equal(f.conclusion, 'better');
  assert.equal(f.verdict, 'A better than B');
  // (1.959964 + 0.841621) * sqrt(1/12) / sqrt(3) = 2.801585 / 6
  assert.ok(Math.abs(f.mde80! - 2.801585 / 6) < 1e-6, String(f.mde80));
  assert.equal(v.pooled!.iteration, null);
  assert.deepEqual(v.checkpoints, [9]);
  assert.equal(v.tasks!.iteration, 9);
  assert.deepEqual(v.tasks!.rows, [
    { task: 't1', successA: 0.5, successB: 0, diff: 0.5, episodesA: 2, episodesB: 2 },
    { task: 't2', successA: 1, successB: 0.5, diff: 0.5, episodesA: 2, episodesB: 2 },
    { task: 't3', successA: 0, successB: 0, diff: 0, episodesA: 2, episodesB: 1 },
    { task: 't4', successA: null, successB: 1, diff: null, episodesA: 0, episodesB: 1 },
  ]);
});

test('B ahead reads "A worse than B" with a negative interval; one task has no interval; none says so', () => {
  const v = verdictView(compareEvaluations(B, A), B, A);
  assert.equal(v.conclusion, 'worse');
  assert.equal(v.finalWords, 'A worse than B at iteration 9: A − B = −33.3 points, 95% CI −66.0 to −0.7 (p = 0.046), on 3 tasks.');
  const one = verdictView(compareEvaluations(ep(1, 'x', 1), ep(1, 'x', 0)), ep(1, 'x', 1), ep(1, 'x', 0));
  assert.equal(one.conclusion, 'inconclusive');
  assert.equal(
    one.finalWords,
    'Inconclusive at iteration 1: A − B = +100.0 points on only 1 task, too few for an interval; it would take at least 2.',
  );
  assert.equal(one.final!.mde80, null);
  const none = compareEvaluations(ep(1, 'x', 1), ep(2, 'x', 0))!;
  const v0 = verdictView(none, ep(1, 'x', 1), ep(2, 'x', 0));
  assert.equal(v0.finalWords, 'No verdict: the runs evaluated no checkpoint in common.');
  assert.equal(v0.conclusion, null);
  assert.equal(v0.pooled, null);
  assert.deepEqual(v0.checkpoints, []);
  assert.equal(v0.tasks, null);
});

test('without an evaluation log, one line names the run and the file that would make the verdict possible', () => {
  const v = verdictView(compareEvaluations(A, undefined), A, undefined);
  assert.equal(v.available, false);
  assert.match(v.missing, /^Run B has no evaluation log: .* A file logs\/eval_log\.jsonl in the run \(docs\/format\.md section 8/);
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

/** Two runs evaluated at `checkpoints` checkpoints (0, 10, 20, ...) on the same `tasks` tasks, two episodes each. */
function evaluated(checkpoints: number, tasks: number): { a: EvalOutcome[]; b: EvalOutcome[] } {
  const a: EvalOutcome[] = [];
  const b: EvalOutcome[] = [];
  for (let c = 0; c < checkpoints; c++)
    for (let t = 0; t < tasks; t++) {
      const task = `task-${String(t).padStart(4, '0')}`;
      a.push(...ep(c * 10, task, (t + c) % 2, (t + c) % 3 === 0 ? 1 : 0));
      b.push(...ep(c * 10, task, (t * c) % 2, 0));
    }
  return { a, b };
}

test("the verdict's first message holds one checkpoint's per-task rows: it does not grow with the checkpoints by their rows", () => {
  const size = (n: number): { bytes: number; rowBytes: number; rows: number; checkpoints: number[]; at: number | undefined } => {
    const { a, b } = evaluated(n, 200);
    const v = verdictView(compareEvaluations(a, b), a, b);
    return {
      bytes: JSON.stringify(v).length,
      rowBytes: JSON.stringify(v.tasks).length,
      rows: v.tasks?.rows.length ?? 0,
      checkpoints: v.checkpoints,
      at: v.tasks?.iteration,
    };
  };
  const few = size(3);
  const many = size(60);
  assert.deepEqual(many.checkpoints.slice(0, 3), [590, 580, 570], 'every common checkpoint, the last first');
  assert.equal(many.checkpoints.length, 60);
  assert.equal(many.at, 590, 'the rows of the last checkpoint');
  assert.equal(many.rows, 200, "one checkpoint's rows, however many checkpoints");
  assert.ok(Math.abs(many.rowBytes - few.rowBytes) < few.rowBytes / 10, `${many.rowBytes} against ${few.rowBytes}`);
  // what grows is a figures line and a number per checkpoint, far below one checkpoint's 200 rows
  const perCheckpoint = (many.bytes - few.bytes) / (60 - 3);
  assert.ok(perCheckpoint < few.rowBytes / 20, `${perCheckpoint} bytes per checkpoint, one checkpoint's rows ${few.rowBytes}`);
});

test("the host answers a checkpoint's per-task rows, the rows of evalTaskRows there; a checkpoint not in common is refused", () => {
  const { a, b } = evaluated(5, 30);
  const bOnly = [...b, ...ep(90, 'task-0000', 1)];
  const held = heldVerdict(compareEvaluations(a, bOnly), a, bOnly);
  assert.deepEqual(held.view.checkpoints, [40, 30, 20, 10, 0]);
  for (const it of [0, 20, 40]) {
    const got = verdictTasks(held, it)!;
    assert.equal(got.iteration, it);
    assert.deepEqual(got.rows, evalTaskRows(a, bOnly, it));
  }
  assert.notDeepEqual(verdictTasks(held, 0)!.rows, verdictTasks(held, 40)!.rows, 'the checkpoints differ, so must their rows');
  assert.equal(verdictTasks(held, 90), undefined, 'B evaluated 90, A did not');
  assert.equal(verdictTasks(held, 5), undefined, 'no run evaluated 5');
  // the next verdict message carries the checkpoint the page asked for, or the last when it is gone
  assert.equal(verdictViewAt(held, 20).tasks!.iteration, 20);
  assert.deepEqual(verdictViewAt(held, 20).tasks!.rows, evalTaskRows(a, bOnly, 20));
  assert.equal(verdictViewAt(held, 90).tasks!.iteration, 40);
  assert.equal(verdictViewAt(held, undefined).tasks!.iteration, 40);
  // without an evaluation log there is nothing to answer
  const none = heldVerdict(compareEvaluations(a, undefined), a, undefined);
  assert.equal(verdictTasks(none, 0), undefined);
  assert.equal(verdictViewAt(none, 0).tasks, null);
});

test('EvalTaskTables: the rows of evalTaskRows at every checkpoint, in the same order, made once', () => {
  const tables = new EvalTaskTables(A, B);
  for (const it of [9, 19, 44]) assert.deepEqual(tables.at(it), evalTaskRows(A, B, it), `iteration ${it}`);
  assert.equal(tables.at(9), tables.at(9), 'kept');
});

test("the page's ask for a checkpoint's rows is checked on arrival", () => {
  const q = { type: 'compare/queryVerdictTasks', seq: 3, iteration: 40 };
  assert.deepEqual(parseCompareMessage(q), q);
  assert.deepEqual(parseCompareMessage({ ...q, extra: 'x' }), q, 'only the known fields');
  for (const bad of [
    { ...q, iteration: -1 },
    { ...q, iteration: 1.5 },
    { ...q, iteration: '40' },
    { ...q, seq: null },
    { type: 'compare/queryVerdictTasks', iteration: 40 },
  ])
    assert.equal(parseCompareMessage(bad), undefined, JSON.stringify(bad));
});
