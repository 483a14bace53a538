import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { taskCounts, taskHistory, taskRowsOf } from '../../src/core/compare/taskHistory';
import type { TaskRows } from '../../src/core/compare/taskHistory';
import { alignTurns, firstDivergentTurn } from '../../src/core/compare/align';
import { TaskColumn } from '../../src/core/compare/taskColumn';
import { Run } from '../../src/core/run/run';

/** rows: [iteration, group, rollout, reward, labeled, task id] */
function rows(tasks: string[], list: [number, number, number, number, boolean, number][]): TaskRows {
  return {
    size: list.length,
    iteration: list.map((r) => r[0]),
    group: list.map((r) => r[1]),
    rollout: list.map((r) => r[2]),
    reward: list.map((r) => r[3]),
    labeled: (i) => list[i]![4],
    task: list.map((r) => r[5]),
    tasks,
  };
}

const R = rows(
  ['t1', 't2', 'open the door'],
  [
    // iteration 0: group 0 is t1 (rollouts written out of order), group 1 is t2
    [0, 0, 1, 0, false, 0],
    [0, 0, 0, 1, true, 0],
    [0, 1, 0, 1, false, 1],
    // iteration 1: t1 in groups 2 and 0 (the history orders groups), a NaN reward not counted
    [1, 2, 0, 1, false, 0],
    [1, 2, 1, NaN, false, 0],
    [1, 0, 0, -1, true, 0],
    [1, 0, 1, 0.5, true, 0],
    // a row without a task key, and the instruction-keyed task
    [1, 3, 0, 1, false, -1],
    [2, 1, 0, 0, false, 2],
  ],
);

test('taskHistory: every group of the task per iteration, rows in rollout order, success over finite rewards', () => {
  const h = taskHistory(R, 't1');
  assert.equal(h.trajectories, 6);
  assert.deepEqual(
    h.groups.map((g) => [g.iteration, g.group, g.rows, g.counted, g.succeeded, g.success, g.labeled]),
    [
      [0, 0, [1, 0], 2, 1, 0.5, 1],
      [1, 0, [5, 6], 2, 1, 0.5, 2],
      [1, 2, [3, 4], 1, 1, 1, 0],
    ],
  );
  // iteration 1: 4 rows, the NaN one not counted: 2 of 3 succeeded (-1 is a format failure, 0.5 > 0 succeeded)
  assert.deepEqual(
    h.perIteration.map((i) => [i.iteration, i.counted, i.succeeded, i.success]),
    [
      [0, 2, 1, 0.5],
      [1, 3, 2, 2 / 3],
    ],
  );
});

test('taskHistory: a task keyed by its instruction, an unknown task, and a group with no counted reward', () => {
  assert.deepEqual(
    taskHistory(R, 'open the door').groups.map((g) => [g.iteration, g.group, g.success]),
    [[2, 1, 0]],
  );
  const none = taskHistory(R, 'never seen');
  assert.deepEqual([none.groups, none.perIteration, none.trajectories], [[], [], 0]);
  const nan = taskHistory(rows(['t'], [[4, 0, 0, NaN, false, 0]]), 't');
  assert.equal(nan.groups[0]!.success, null);
  assert.equal(nan.perIteration[0]!.success, null);
});

test('taskCounts: tasks with their trajectories and iterations, most first, rows without a key left out', () => {
  assert.deepEqual(taskCounts(R), [
    { task: 't1', trajectories: 6, iterations: 2 },
    { task: 'open the door', trajectories: 1, iterations: 1 },
    { task: 't2', trajectories: 1, iterations: 1 },
  ]);
});

const turns = (...actions: (string | null)[]): { action: string | null }[] => actions.map((action) => ({ action }));

test('firstDivergentTurn: the first differing executed action, canonical match, a side that ends early', () => {
  assert.equal(firstDivergentTurn(turns('a()', 'b(x=1)', 'c()'), turns('a()', 'b(x=2)', 'c()')), 1);
  // a point within the click tolerance (20) and key names in another case are the same action
  assert.equal(
    firstDivergentTurn(
      turns('click(point_2d=[412, 88])', 'press_keys(keys=["Enter"])'),
      turns('click(point_2d=[420, 100])', 'press_keys(keys=["enter"])'),
    ),
    null,
  );
  assert.equal(firstDivergentTurn(turns('click(point_2d=[412, 88])'), turns('click(point_2d=[412, 120])')), 0);
  assert.equal(firstDivergentTurn(turns('a()', 'b()'), turns('a()', 'b()', 'c()')), 2);
  assert.equal(firstDivergentTurn(turns(null, 'a()'), turns(null, 'b()')), 1);
  assert.equal(firstDivergentTurn(turns('a()'), turns(null)), 0);
  assert.equal(firstDivergentTurn([], []), null);
});

test('alignTurns: one row per index of the longer side, absent past a side’s end', () => {
  const a = alignTurns(turns('a()', 'b()'), turns('a()', 'x()', 'y()'));
  assert.deepEqual(
    a.map((r) => [r.index, r.left?.action, r.right?.action, r.same]),
    [
      [0, 'a()', 'a()', true],
      [1, 'b()', 'x()', false],
      [2, undefined, 'y()', false],
    ],
  );
});

test('taskRowsOf over a real index: the history follows a growing log', async () => {
  const d = tempDir();
  mkdirSync(join(d, 'logs'));
  const log = join(d, 'logs', 'ws_credit_log.jsonl');
  const line = (iteration: number, group: number, rollout: number, reward: number, task: Record<string, string>): string =>
    JSON.stringify({ iteration, group, rollout, ...task, reward, A: reward - 0.5, turns: [{ action: 'a()' }] }) + '\n';
  writeFileSync(log, line(0, 0, 0, 1, { task_id: 'T' }) + line(0, 0, 1, 0, { task_id: 'T' }) + line(0, 1, 0, 1, { instruction: 'I' }));
  const run = (await Run.open(d))!;
  await run.update();
  const col = new TaskColumn(run.credit!);
  await col.update();
  assert.deepEqual(
    taskHistory(taskRowsOf(col), 'T').perIteration.map((i) => [i.iteration, i.success]),
    [[0, 0.5]],
  );
  // an empty task_id does not name a task: the instruction pairs it
  appendFileSync(log, line(1, 0, 0, 1, { task_id: 'T' }) + line(1, 1, 0, 0, { task_id: '', instruction: 'I' }));
  await run.update();
  await col.update();
  assert.deepEqual(
    taskHistory(taskRowsOf(col), 'T').perIteration.map((i) => [i.iteration, i.success]),
    [
      [0, 0.5],
      [1, 1],
    ],
  );
  assert.deepEqual(
    taskHistory(taskRowsOf(col), 'I').groups.map((g) => [g.iteration, g.group, g.rows]),
    [
      [0, 1, [2]],
      [1, 1, [4]],
    ],
  );
  col.dispose();
});
