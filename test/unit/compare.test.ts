import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { close, tempDir } from '../helpers';
import { COMPARE_A_LINES, COMPARE_B_LINES } from '../fixtures';
import { Run } from '../../src/core/run/run';
import { RunComparer } from '../../src/core/compare/compareRuns';
import { compareRows } from '../../src/core/compare/figures';
import type { CompareRows } from '../../src/core/compare/figures';
import { TopFieldReader } from '../../src/core/compare/topFields';
import { buildSchemaTables } from '../../src/core/record/schema';
import { normaliseRecord } from '../../src/core/record/trajectory';
import { parseTolerant } from '../../src/core/log/tolerantJson';
import { writeDemo } from '../../src/core/demo/demo';

function runDir(lines: readonly string[]): string {
  const d = tempDir();
  mkdirSync(join(d, 'logs'));
  writeFileSync(join(d, 'logs', 'ws_credit_log.jsonl'), lines.join('\n') + '\n');
  return d;
}

const dirA = runDir(COMPARE_A_LINES);
const dirB = runDir(COMPARE_B_LINES);

async function opened(dir: string): Promise<Run> {
  const r = (await Run.open(dir))!;
  await r.update();
  return r;
}

/** 2 (1 - Phi(1 / sqrt 3)): two against one, the sign test of both the iterations and the tasks below */
const P_2_1 = 0.563702861650773;

test('the whole window, by hand: iterations 0, 1, 2 and 5; ties; tasks in one run only; missing task ids', async () => {
  const c = await new RunComparer(await opened(dirA), await opened(dirB)).compute();
  const f = c.figures;
  // A counts 10 (the NaN reward is not counted, the iteration 1.5 line is skipped, iteration 3 is not in B); B counts 9 (iteration 4 is not in A)
  assert.equal(f.iterations, 4);
  assert.equal(f.trajectoriesA, 10);
  assert.equal(f.trajectoriesB, 9);
  assert.ok(close(f.successA, 6 / 10));
  assert.ok(close(f.successB, 5 / 9));
  // A's format failure counts as its -1
  assert.ok(close(f.rewardA, 5 / 10));
  assert.ok(close(f.rewardB, 5 / 9));
  assert.deepEqual(
    f.perIteration.map((r) => [r.iteration, r.successA, r.successB, r.rewardA, r.rewardB]),
    [
      [0, 3 / 4, 1 / 3, 3 / 4, 1 / 3],
      [1, 2 / 4, 2 / 3, 1 / 4, 2 / 3],
      [2, 0, 1 / 2, 0, 1 / 2],
      [5, 1, 1, 1, 1],
    ],
  );
  // 0: ahead, 1 and 2: behind, 5: a tie
  assert.equal(f.iterationsAhead, 1);
  assert.equal(f.iterationsBehind, 2);
  assert.ok(close(f.iterationSignTestP, P_2_1, 1e-6));
  // t1 2/3 vs 1/3 (B's t1 at iteration 2 is logged as step/task), t2 1/3 vs 2/3 (B's escaped task\u005fid),
  // "walk the dog" 1 vs 0 (instruction / goal), t5 1 vs 1; t3 is A's only, t4 B's only
  const t = f.tasks;
  assert.equal(t.count, 4);
  assert.ok(close(t.meanDiff, 0.25));
  assert.ok(close(t.t, 0.87831006565368, 1e-9));
  assert.ok(close(t.p, 0.379775474840949, 1e-6));
  assert.deepEqual([t.wins, t.losses, t.ties], [2, 1, 1]);
  assert.ok(close(t.signTestP, P_2_1, 1e-6));
  const byTask = new Map(c.perTask.map((r) => [r.task, r]));
  assert.deepEqual(byTask.get('t3'), { task: 't3', trajectoriesA: 1, trajectoriesB: 0, successA: 1, successB: null, diff: null });
  assert.deepEqual(byTask.get('t4'), { task: 't4', trajectoriesA: 0, trajectoriesB: 1, successA: null, successB: 1, diff: null });
  assert.equal(byTask.get('walk the dog')?.diff, 1);
  // the NaN reward is not counted; the iteration 1.5 line is not even a trajectory: the index skips it by line number
  assert.deepEqual(c.counts, { notCountedA: 1, notCountedB: 0, unkeyedA: 1, unkeyedB: 0, onlyA: 1, onlyB: 1 });
  assert.ok(c.warnings.some((w) => w.startsWith('run B') && w.includes('no labeled turn')));
  assert.ok(!c.warnings.some((w) => w.startsWith('run A') && w.includes('no labeled turn')));
  assert.ok(c.warnings.some((w) => w.includes('1 trajectory(ies) not counted')));
  assert.ok(c.warnings.some((w) => w.includes('1 trajectory(ies) of the window have neither task_id nor instruction')));
  assert.ok(c.warnings.some((w) => w.includes('1 task(s) of the window seen by run A only and 1 by run B only')));
  // B has no labeled turn: its section-4 figures that need them are null, never an error
  assert.equal(c.reportA.meanC, 0.0625);
  assert.equal(c.reportB.labeledTurns, 0);
  for (const k of ['signFlipRate', 'fallbackRate', 'executedIsArgmaxRate', 'meanC', 'rmsBetaCOverRmsA', 'auroc'] as const)
    assert.equal(c.reportB[k], null, k);
  assert.equal(c.reportB.gate.meanDiff, null);
  assert.equal(c.reportA.skippedLines, 2); // "not json" and the iteration 1.5 line
});

test('a window cut to [1, 2]', async () => {
  const c = await new RunComparer(await opened(dirA), await opened(dirB)).compute({ from: 1, to: 2 });
  const f = c.figures;
  assert.equal(f.iterations, 2);
  assert.deepEqual([f.trajectoriesA, f.trajectoriesB], [5, 5]);
  assert.ok(close(f.successA, 2 / 5) && close(f.successB, 3 / 5));
  assert.ok(close(f.rewardA, 1 / 5) && close(f.rewardB, 3 / 5));
  assert.deepEqual([f.iterationsAhead, f.iterationsBehind], [0, 2]);
  assert.ok(close(f.iterationSignTestP, 0.1572992070502852, 1e-6));
  // t1: 1 vs 1/2, t2: 0 vs 1/2: mean 0 with sd > 0, so t = 0 and p = 1
  const t = f.tasks;
  assert.equal(t.count, 2);
  assert.ok(close(t.meanDiff, 0));
  assert.ok(close(t.t, 0) && close(t.p, 1, 1e-6));
  assert.deepEqual([t.wins, t.losses, t.ties], [1, 1, 0]);
  assert.ok(close(t.signTestP, 1, 1e-6));
  assert.deepEqual(
    f.perIteration.map((r) => r.iteration),
    [1, 2],
  );
});

test('a window with no common iteration: every figure without data is null', async () => {
  const c = await new RunComparer(await opened(dirA), await opened(dirB)).compute({ from: 6 });
  assert.deepEqual(c.figures, {
    iterations: 0,
    trajectoriesA: 0,
    trajectoriesB: 0,
    successA: null,
    successB: null,
    rewardA: null,
    rewardB: null,
    iterationsAhead: 0,
    iterationsBehind: 0,
    iterationSignTestP: null,
    tasks: { count: 0, meanDiff: null, t: null, p: null, wins: 0, losses: 0, ties: 0, signTestP: null },
    perIteration: [],
  });
  assert.ok(c.warnings.some((w) => w.includes('share no iteration in [6, …]')));
});

function rows(iteration: number[], reward: number[], task: number[], tasks: string[]): CompareRows {
  return { size: iteration.length, iteration, reward, task, tasks };
}

test('t and p are null when the task differences have sd 0 or there is one task', () => {
  // two tasks, each A 1 vs B 1/2: diffs 0.5 and 0.5
  const a = rows([0, 0], [1, 1], [0, 1], ['x', 'y']);
  const b = rows([0, 0, 0, 0], [1, 0, 0, 1], [1, 1, 0, 0], ['x', 'y']);
  const t = compareRows(a, b).figures.tasks;
  assert.equal(t.count, 2);
  assert.equal(t.meanDiff, 0.5);
  assert.equal(t.t, null);
  assert.equal(t.p, null);
  assert.equal(t.wins, 2);
  const one = compareRows(rows([0], [1], [0], ['x']), rows([0], [0], [0], ['x'])).figures.tasks;
  assert.deepEqual([one.count, one.meanDiff, one.t, one.p], [1, 1, null, null]);
  // all ties: the sign test has nothing to count
  const tie = compareRows(rows([0], [1], [0], ['x']), rows([0], [1], [0], ['x'])).figures;
  assert.deepEqual([tie.tasks.ties, tie.tasks.signTestP, tie.iterationSignTestP], [1, null, null]);
});

test('the top-field reader: top level only, aliases by priority, values as the normaliser shows them', () => {
  const r = new TopFieldReader(buildSchemaTables());
  const read = (s: string): { iteration: number; task: string | null } => r.fields(Buffer.from(s), 0, Buffer.byteLength(s));
  assert.deepEqual(read('{"iteration":1,"turns":[{"task_id":"inner","x":{"id":"deep"}}],"instruction":"outer"}'), {
    iteration: 1,
    task: 'outer',
  });
  assert.deepEqual(read('{"iter":2,"id":"low","task_id":"high","iteration":3}'), { iteration: 3, task: 'high' });
  assert.deepEqual(read('{ "iteration" : "7" , "task_id" : 17 }'), { iteration: 7, task: '17' });
  assert.deepEqual(read('{"iteration":7.0,"task_id":"","instruction":"say \\"hi\\""}'), { iteration: 7, task: 'say "hi"' });
  assert.deepEqual(read('{"iteration":true,"task_id":null}'), { iteration: NaN, task: null });
  assert.deepEqual(read('{"iteration":NaN,"task_id":{"a":[1,2]}}'), { iteration: NaN, task: '{"a":[1,2]}' });
  assert.deepEqual(read('{"iteration":-2,"instruction":"x \\\\"}'), { iteration: -2, task: 'x \\' });
  const mapped = new TopFieldReader(buildSchemaTables({ task_id: 'problem', iteration: 'it' }));
  const s = '{"iteration":1,"it":4,"task_id":"a","problem":"p9"}';
  assert.deepEqual(mapped.fields(Buffer.from(s), 0, s.length), { iteration: 4, task: 'p9' });
});

test('the top-field reader agrees with the record normaliser on the demo logs', () => {
  const dir = tempDir();
  const res = writeDemo(dir, { trajectories: 600, hubRepo: false });
  const tables = buildSchemaTables();
  const r = new TopFieldReader(tables);
  for (const log of [res.creditLog, res.baseline!.creditLog]) {
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 600);
    for (const line of lines) {
      const v = normaliseRecord(parseTolerant(line) as Record<string, unknown>, tables).view;
      const b = Buffer.from(line);
      assert.deepEqual(r.fields(b, 0, b.length), { iteration: v.iteration, task: v.taskId ?? v.instruction });
    }
  }
});

test('computing again after a log grew reads the new rows, and a provisional last line is taken back', async () => {
  const dir = runDir(COMPARE_B_LINES);
  const a = await opened(dirA);
  const b = await opened(dir);
  const cmp = new RunComparer(a, b);
  assert.equal((await cmp.compute()).figures.trajectoriesB, 9);
  const log = join(dir, 'logs', 'ws_credit_log.jsonl');
  appendFileSync(log, '{"iteration":3,"group":0,"rollout":0,"task_id":"t3","reward":0,"A":0,"turns":[]}\n');
  // a last line without its newline, whose task changes once complete
  appendFileSync(log, '{"iteration":3,"group":1,"rollout":0,"task_id":"t9","reward":1,"A":0,"turns":[]}');
  await b.update();
  let c = await cmp.compute();
  assert.equal(c.figures.iterations, 5);
  assert.equal(c.figures.trajectoriesB, 11);
  assert.ok(c.perTask.some((r) => r.task === 't9'));
  // the pending line is rewritten and completed: t9 becomes t1
  writeFileSync(log, readFileSync(log, 'utf8').replace(/"t9","reward":1,"A":0,"turns":\[\]\}$/, '"t1","reward":1,"A":0,"turns":[]}\n'));
  await b.update();
  c = await cmp.compute();
  assert.equal(c.figures.trajectoriesB, 11);
  assert.ok(!c.perTask.some((r) => r.task === 't9'));
  assert.equal(c.perTask.find((r) => r.task === 't3')?.diff, 1);
});
