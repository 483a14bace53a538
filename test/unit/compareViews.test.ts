import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { RunComparer } from '../../src/core/compare/compareRuns';
import { compareRows } from '../../src/core/compare/figures';
import type { TaskRow } from '../../src/core/compare/figures';
import { compareChartsView, compareView, figureViews, pWords, queryTaskRows } from '../../src/extension/compare/compareViews';
import { parseCompareMessage, parseCompareState } from '../../src/shared/protocol/compare';

const row = (task: string, a: number | null, b: number | null, na = 2, nb = 2): TaskRow => ({
  task,
  successA: a,
  successB: b,
  diff: a === null || b === null ? null : a - b,
  trajectoriesA: a === null ? 0 : na,
  trajectoriesB: b === null ? 0 : nb,
});

const ROWS: TaskRow[] = [
  row('beta', 0.5, 0.25),
  row('alpha', 0, 1),
  row('gamma', null, 0.5),
  row('Delta', 1, 0.5),
  row('eps', 0.5, null, 4),
];

test('the task table sorts by any column either way, no data last both ways, ties by task', () => {
  const names = (rs: TaskRow[]): string[] => rs.map((r) => r.task);
  assert.deepEqual(names(queryTaskRows(ROWS, { key: 'diff', descending: true }, '')), ['Delta', 'beta', 'alpha', 'eps', 'gamma']);
  assert.deepEqual(names(queryTaskRows(ROWS, { key: 'diff', descending: false }, '')), ['alpha', 'beta', 'Delta', 'eps', 'gamma']);
  assert.deepEqual(names(queryTaskRows(ROWS, { key: 'successB', descending: true }, '')), ['alpha', 'Delta', 'gamma', 'beta', 'eps']);
  assert.deepEqual(names(queryTaskRows(ROWS, { key: 'trajectoriesA', descending: true }, '')), ['eps', 'Delta', 'alpha', 'beta', 'gamma']);
  assert.deepEqual(names(queryTaskRows(ROWS, { key: 'task', descending: false }, '')), ['Delta', 'alpha', 'beta', 'eps', 'gamma']);
  assert.deepEqual(names(queryTaskRows(ROWS, { key: 'task', descending: true }, '')), ['gamma', 'eps', 'beta', 'alpha', 'Delta']);
});

test('the task filter is a case-insensitive substring of the task, trimmed; the input is not reordered', () => {
  const before = ROWS.map((r) => r.task);
  assert.deepEqual(
    queryTaskRows(ROWS, { key: 'task', descending: false }, '  ELT ').map((r) => r.task),
    ['Delta'],
  );
  assert.deepEqual(
    queryTaskRows(ROWS, { key: 'task', descending: false }, 'a').map((r) => r.task),
    ['Delta', 'alpha', 'beta', 'gamma'],
  );
  assert.equal(queryTaskRows(ROWS, { key: 'diff', descending: true }, 'zzz').length, 0);
  assert.deepEqual(
    ROWS.map((r) => r.task),
    before,
  );
});

test('figures of section 6 by hand: two iterations, A ahead in one, tied in the other; tasks paired', () => {
  // A: it 0: t1 win, t2 fail; it 1: t1 win, t2 win. B: it 0: t1 fail, t2 fail; it 1: t1 win, t2 win.
  const a = { size: 4, iteration: [0, 0, 1, 1], reward: [1, 0, 1, 1], task: [0, 1, 0, 1], tasks: ['t1', 't2'] };
  const b = { size: 4, iteration: [0, 0, 1, 1], reward: [0, 0, 1, 1], task: [0, 1, 0, 1], tasks: ['t1', 't2'] };
  const f = compareRows(a, b).figures;
  const v = new Map(figureViews(f).map((x) => [x.key, x]));
  assert.equal(v.get('iterations')!.a, 2);
  assert.match(v.get('iterations')!.meaning, /2, from 0 to 1/);
  assert.equal(v.get('success')!.a, 0.75);
  assert.equal(v.get('success')!.b, 0.5);
  assert.equal(v.get('success')!.diff, 0.25);
  assert.match(v.get('success')!.meaning, /A 75\.0%, B 50\.0%: A is 25\.0 points ahead/);
  const ahead = v.get('iterationsAhead')!;
  assert.deepEqual([ahead.a, ahead.b, ahead.diff], [1, 0, null]);
  assert.equal(ahead.p, f.iterationSignTestP);
  assert.match(ahead.meaning, /In 1 of 2 common iterations .* higher .* in 0 lower \(1 tied\)/);
  const td = v.get('taskMeanDiff')!;
  // t1: 1 - 0.5 = 0.5; t2: 0.5 - 0.5 = 0: mean 0.25, sd 0.3536, t = 1
  assert.equal(td.diff, 0.25);
  assert.ok(Math.abs(f.tasks.t! - 1) < 1e-12);
  assert.match(td.meaning, /Over 2 tasks .* 25\.0 points higher .* paired t = 1\.00, p = .*could well be chance/);
  const w = v.get('taskWins')!;
  assert.deepEqual([w.a, w.b], [1, 0]);
  assert.match(w.meaning, /A did better on 1 task, B on 0, 1 tied/);
});

test('a window without common iterations says so in every figure, never a number of nothing', () => {
  const a = { size: 1, iteration: [0], reward: [1], task: [0], tasks: ['t'] };
  const b = { size: 1, iteration: [1], reward: [1], task: [0], tasks: ['t'] };
  const v = figureViews(compareRows(a, b).figures);
  const by = new Map(v.map((x) => [x.key, x]));
  assert.match(by.get('iterations')!.meaning, /share no iteration/);
  assert.equal(by.get('success')!.a, null);
  assert.equal(by.get('success')!.diff, null);
  assert.match(by.get('success')!.meaning, /^Empty/);
  assert.match(by.get('taskMeanDiff')!.meaning, /^Empty: no task seen by both/);
  assert.equal(by.get('iterationsAhead')!.p, null);
});

test('pWords reads a p value aloud, and says why there is none', () => {
  assert.match(pWords(0.001, ''), /unlikely/);
  assert.match(pWords(0.5, ''), /could well be chance/);
  assert.equal(pWords(null, 'every task tied'), 'no p value: every task tied');
});

test('the demo against its plain GRPO baseline: the view holds core figures, B without labeled turns says why', async () => {
  const dir = tempDir();
  const res = writeDemo(dir, { hubRepo: false });
  const a = (await Run.open(dir))!;
  const b = (await Run.open(res.baseline!.root))!;
  await Promise.all([a.update(), b.update()]);
  const comparer = new RunComparer(a, b);
  const c = await comparer.compute();
  comparer.dispose();
  const v = compareView(c, { name: 'run', root: dir }, { name: 'baseline', root: res.baseline!.root });
  const fig = new Map(v.figures.map((x) => [x.key, x]));
  assert.equal(fig.get('success')!.a, c.figures.successA);
  assert.equal(fig.get('success')!.b, c.figures.successB);
  assert.equal(fig.get('taskMeanDiff')!.p, c.figures.tasks.p);
  assert.equal(v.window.iterations, 45);
  assert.deepEqual([v.window.first, v.window.last], [c.figures.perIteration[0]!.iteration, c.figures.perIteration.at(-1)!.iteration]);
  // the charts' series travel on their own, after the first paint: the first message holds none of them
  assert.ok(!('perIteration' in v) && !('credit' in v));
  const ch = compareChartsView(c);
  assert.equal(ch.perIteration.length, 45);
  assert.equal(ch.perIteration[3]!.diff, c.figures.perIteration[3]!.successA - c.figures.perIteration[3]!.successB);
  // of the credit diagnostics, the gate the page draws and its words; not the report's histogram and dose
  assert.deepEqual(Object.keys(ch.credit.a).sort(), ['gate', 'gateWords']);
  assert.deepEqual(ch.credit.a.gate, c.creditDiagnostics.A.gatePerIteration);
  assert.ok(ch.credit.a.gate.length > 0);
  assert.match(ch.credit.a.gateWords, /the last with gate groups/);
  assert.deepEqual(ch.credit.b, { gate: [], gateWords: '' });
  assert.equal(v.a.unlabeled, '');
  assert.match(v.b.unlabeled, /no labeled turn/);
  const flip = v.report.find((l) => l.key === 'signFlipRate')!;
  assert.equal(flip.b, null);
  assert.equal(flip.markB, 'no labeled turn');
  assert.notEqual(flip.a, null);
  assert.notEqual(flip.markA, 'no labeled turn');
  assert.equal(v.taskCounts.both, c.figures.tasks.count);
  assert.ok(v.curveA.length > 0 && v.curveB.length > 0);
});

test('messages from the page are checked: a bad sort, an oversized page or text is dropped', () => {
  const q = { type: 'compare/queryTasks', seq: 1, sort: { key: 'diff', descending: true }, text: '', offset: 0, limit: 200 };
  assert.deepEqual(parseCompareMessage(q), q);
  assert.equal(parseCompareMessage({ ...q, sort: { key: '__proto__', descending: true } }), undefined);
  assert.equal(parseCompareMessage({ ...q, limit: 100000 }), undefined);
  assert.equal(parseCompareMessage({ ...q, offset: -1 }), undefined);
  assert.equal(parseCompareMessage({ ...q, text: 'x'.repeat(501) }), undefined);
  assert.equal(parseCompareMessage({ type: 'compare/openTask', task: 7 }), undefined);
  assert.deepEqual(parseCompareMessage({ type: 'compare/openTask', task: 'a<b>' }), { type: 'compare/openTask', task: 'a<b>' });
  assert.deepEqual(parseCompareMessage({ type: 'compare/queryCharts', extra: 1 }), { type: 'compare/queryCharts' });
  assert.equal(parseCompareMessage({ type: 'other' }), undefined);
  assert.equal(parseCompareMessage(['compare/copyLink']), undefined);
});

test('a saved comparison state is checked field by field', () => {
  assert.equal(parseCompareState({ rootA: '/a' }), undefined);
  assert.equal(parseCompareState({ rootA: '', rootB: '/b' }), undefined);
  assert.deepEqual(parseCompareState({ rootA: '/a', rootB: '/b', sort: { key: 'nope', descending: true }, scrollTop: -3, text: 'x' }), {
    kind: 'compare',
    rootA: '/a',
    rootB: '/b',
    root: '/a',
    text: 'x',
  });
});
