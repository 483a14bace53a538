import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { close, tempDir } from '../helpers';
import { COMPARE_A_LINES, COMPARE_B_LINES } from '../fixtures';
import { rlrb, rlrbJson } from '../cliRun';
import { Run } from '../../src/core/run/run';
import { RunComparer } from '../../src/core/compare/compareRuns';
import { compareRows } from '../../src/core/compare/figures';
import type { CompareRows } from '../../src/core/compare/figures';
import { TopFieldReader } from '../../src/core/compare/topFields';
import { buildSchemaTables } from '../../src/core/record/schema';
import { normaliseRecord } from '../../src/core/record/trajectory';
import { parseTolerant } from '../../src/core/log/tolerantJson';
import { writeDemo } from '../../src/core/demo/demo';
import { TAG_NAMES } from '../../src/core/behaviour/tags';

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

// ---- the CLI

test('compare --json prints exactly the keys of section 6 plus evaluation, behaviour, evalBehaviour, creditDiagnostics, warnings, reportA and reportB', () => {
  const o = rlrbJson('compare', dirA, dirB);
  assert.deepEqual(
    Object.keys(o).sort(),
    [
      'iterations',
      'trajectoriesA',
      'trajectoriesB',
      'successA',
      'successB',
      'rewardA',
      'rewardB',
      'iterationsAhead',
      'iterationsBehind',
      'iterationSignTestP',
      'tasks',
      'perIteration',
      'evaluation',
      'creditDiagnostics',
      'warnings',
      'reportA',
      'reportB',
      'behaviour',
      'evalBehaviour',
    ].sort(),
  );
  const behaviour = o['behaviour'] as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(behaviour), [...TAG_NAMES]);
  assert.deepEqual(Object.keys(behaviour['repeat']!), ['rateA', 'rateB', 'diff', 'p']);
  // run B is a plain run: its label tags are null, and so are diff and p; A's rate stays (section 7)
  assert.deepEqual(behaviour['collapsed'], { rateA: 0, rateB: null, diff: null, p: null });
  assert.deepEqual(behaviour['creditDisagrees'], { rateA: 0, rateB: null, diff: null, p: null });
  assert.deepEqual(Object.keys(o['tasks'] as object).sort(), ['count', 'losses', 'meanDiff', 'p', 'signTestP', 't', 'ties', 'wins'].sort());
  const per = o['perIteration'] as Record<string, unknown>[];
  assert.deepEqual(Object.keys(per[0]!).sort(), ['iteration', 'rewardA', 'rewardB', 'successA', 'successB']);
  // each report is what `rlrb report --json` prints for that run
  const ra = JSON.parse(rlrb('report', dirA, '--json').out) as unknown;
  assert.deepEqual(o['reportA'], ra);
  assert.equal((o['reportB'] as { signFlipRate: unknown }).signFlipRate, null);
  assert.equal(o['evaluation'], null, 'neither run has an evaluation log');
  assert.equal(o['iterations'], 4);
  const cut = JSON.parse(rlrb('compare', dirA, dirB, '--json', '--from', '6').out) as Record<string, unknown>;
  assert.equal(cut['successA'], null);
  assert.equal((cut['tasks'] as Record<string, unknown>)['meanDiff'], null);
  const cut2 = JSON.parse(rlrb('compare', dirA, dirB, '--json', '--from=1', '--to', '2').out) as Record<string, unknown>;
  assert.equal(cut2['iterations'], 2);
});

/*
 * The behaviour section of the text, by hand over the window's iterations 0, 1, 2, 5 (horizon 15):
 * A counts 10 trajectories: two of one turn without done (noDone), eight of none (empty), one reward -1 (formatFailure);
 * B counts 9: three of one turn without done, six empty, none below 0; B is plain, so collapsed and creditDisagrees are null.
 * noDone: 2/10 against 3/9, q = 5/19, z = -0.1333 / sqrt(q (1 - q) (1/10 + 1/9)) = -0.6590, p = 0.5099;
 * empty: 8/10 against 6/9, the same z with the other sign; formatFailure 1/10 against 0/9, q = 1/19, z = 0.9747, p = 0.3297;
 * repeat 0 against 0: q = 0, no p.
 */
test("compare (text): the behaviour section, each tag's rates, A - B and p in a table and in the panel's words", () => {
  const t = rlrb('compare', dirA, dirB);
  assert.equal(t.code, 0, t.err);
  const lines = t.out.split('\n');
  const at = lines.indexOf('Behaviour (section 7) on the training rollouts of the window (two-proportion z test):');
  assert.ok(at > 0, t.out);
  assert.match(lines[at + 1]!, /^ {2}tag +run A +run B +A - B +p$/);
  const row = (label: string): string[] =>
    lines
      .find((l) => l.startsWith(`  ${label}  `))!
      .trim()
      .split(/ {2,}/);
  assert.deepEqual(row('no done'), ['no done', '20.0%', '33.3%', '-13.3 pts', '0.5099']);
  assert.deepEqual(row('empty'), ['empty', '80.0%', '66.7%', '+13.3 pts', '0.5099']);
  assert.deepEqual(row('format failure'), ['format failure', '10.0%', '0.0%', '+10.0 pts', '0.3297']);
  assert.deepEqual(row('repeat'), ['repeat', '0.0%', '0.0%', '0.0 pts', '—']);
  assert.deepEqual(row('collapsed'), ['collapsed', '0.0%', '—', '—', '—']);
  assert.ok(lines.includes('  no done: A stops without done on 20.0% of trajectories, B on 33.3%, p = 0.5099.'), t.out);
  assert.ok(lines.includes('  repeat: A loops on 0.0% of trajectories, B on 0.0%, no p value (neither run has it, or both always do).'));
  assert.ok(lines.includes('  collapsed: A collapses on 0.0% of trajectories; B has no labeled turns, so no rate and no test.'), t.out);
  assert.ok(lines.includes('Behaviour on eval episodes: none (a run has no evaluation log).'));
});

test('compare: a readable table; exit 2 with one line on stderr on bad usage or a missing run', () => {
  const t = rlrb('compare', dirA, dirB);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /Window: 4 common iteration\(s\) \(0\.\.5\)/);
  assert.match(t.out, /A ahead in 1, behind in 2; sign test p = 0\.5637/);
  assert.match(t.out, /4 seen by both; mean diff \+0\.2500/);
  assert.match(t.out, /Run reports/);
  assert.match(t.out, /Training curve/);
  assert.match(t.out, /Warnings:/);
  const empty = tempDir();
  for (const args of [
    [dirA],
    [dirA, dirB, dirA],
    [dirA, join(empty, 'nothing')],
    [dirA, empty],
    [dirA, dirB, '--from', 'x'],
    [dirA, dirB, '--from', '1.5'],
    [dirA, dirB, '--from', '3', '--to', '2'],
    [dirA, dirB, '--to'],
    [dirA, dirB, '--bogus=1'],
  ]) {
    const r = rlrb('compare', ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.equal(r.out, '');
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.match(r.err, /^rlrb: /);
  }
  // a run with only a metrics log has nothing to compare
  writeFileSync(join(empty, 'ws_metrics.jsonl'), '{"iteration":0,"x":1}\n');
  const m = rlrb('compare', dirA, empty);
  assert.equal(m.code, 2);
  assert.match(m.err, /no credit log/);
});
