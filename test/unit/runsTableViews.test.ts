import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { runsTable } from '../../src/core/runs/runsTable';
import type { TableRun } from '../../src/core/runs/runsTable';
import { fileStates, statesOnce } from '../../src/core/cache/keptFigures';
import { IndexStore } from '../../src/core/log/indexStore';
import { runsTableView } from '../../src/extension/runsTable/runsTableViews';
import type { TableEntry } from '../../src/extension/runsTable/runsTableViews';
import { RUNS_COLUMNS, parseRunsTableMessage, parseRunsTableState } from '../../src/shared/protocol/runsTable';
import type { RunsRowView } from '../../src/shared/protocol/runsTable';
import { parseRunsFilter, passes, sortRows } from '../../webview/runsTable/filter';

const dir = tempDir();
writeDemo(dir, { trajectories: 600, hubRepo: false, baseline: true });
const base = join(dir, 'baseline');

async function tableRun(path: string, store?: IndexStore): Promise<TableRun> {
  const run = (await Run.open(path, undefined, store ? { store } : {}))!;
  return { name: run.location.name, run, read: () => run.update() };
}

test('the presenter: every column of a computed row in words, sorting by core figures; the baseline and runs not read say so', async () => {
  const [a, b] = [await tableRun(dir), await tableRun(base)];
  const t = await runsTable([a, b], b);
  const entries: TableEntry[] = [
    { root: a.run.location.root, name: 'beta 0.4', source: 'local' },
    { root: b.run.location.root, name: 'plain', source: 'added' },
    { root: 'hub:o/n', name: 'o/n', source: 'hub', note: 'followed on the Hub; logs not read', readable: true },
  ];
  const v = runsTableView(entries, t, b.run.location.root);
  assert.deepEqual(v.baseline, { root: b.run.location.root, name: 'plain' });
  const [ra, rb, rc] = v.rows as [RunsRowView, RunsRowView, RunsRowView];
  const core = t.runs[0]!;
  assert.equal(ra.note, null);
  assert.deepEqual(Object.keys(ra.cells).sort(), [...RUNS_COLUMNS].sort());
  assert.equal(ra.cells.iterations?.sort, core.iterations);
  assert.equal(ra.cells.trajectories?.sort, core.trajectories);
  assert.equal(ra.cells.gateP?.sort, core.gate.p);
  assert.equal(ra.cells.signFlip?.sort, core.signFlipRate);
  assert.equal(ra.cells['tag:falseDone']?.sort, core.tags.falseDone);
  assert.equal(ra.cells.evalSuccess?.sort, core.lastEval!.success);
  assert.equal(ra.cells.beta?.text, '0.400');
  const verdict = ra.cells.verdict!;
  assert.equal(verdict.tone, core.verdict!.final!.conclusion);
  assert.ok(verdict.text.startsWith(core.verdict!.final!.conclusion), verdict.text);
  assert.ok(verdict.opens);
  // the plain run is the baseline: its verdict cell says so and opens nothing; its label rates are no data, not 0
  assert.equal(rb.baseline, true);
  assert.equal(rb.cells.verdict?.text, 'baseline');
  assert.equal(rb.cells.signFlip?.sort, null);
  assert.equal(rb.cells.signFlip?.opens, false);
  assert.equal(rc.readable, true);
  assert.deepEqual(rc.cells, {});
  assert.equal(v.reading, 0);
  // without a baseline no verdict is shown, and a row not computed yet is reading
  const none = runsTableView(entries.slice(0, 1), undefined, null);
  assert.equal(none.rows[0]!.note, 'reading…');
  assert.equal(none.reading, 1);
  const noBase = runsTableView(entries.slice(0, 2), await runsTable([a, b]), null);
  assert.equal(noBase.rows[0]!.cells.verdict?.text, '—');
});

test('a second table from the kept figures equals the first; the states of one lookup are taken once per file', async () => {
  const store = new IndexStore(join(tempDir(), 'store'));
  const first = await runsTable([await tableRun(dir, store), await tableRun(base, store)], await tableRun(base, store));
  const second = await runsTable([await tableRun(dir, store), await tableRun(base, store)], await tableRun(base, store));
  assert.deepEqual(second, first);
  const f = join(tempDir(), 'f.jsonl');
  writeFileSync(f, '{"a":1}\n');
  const once = statesOnce();
  const [s1] = await once([f]);
  appendFileSync(f, '{"a":2}\n');
  const [s2] = await once([f, undefined]);
  assert.deepEqual(s2, s1, 'a memo: the state taken first');
  assert.notDeepEqual((await fileStates([f]))[0], s1, 'the file did change');
});

const row = (name: string, cells: Record<string, number | null>): RunsRowView => ({
  root: `/r/${name}`,
  name,
  source: 'local',
  note: null,
  readable: false,
  baseline: false,
  cells: Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, { text: String(v), sort: v, opens: true }])),
});

const ROWS = [
  row('sweep beta0.2 seed1', { beta: 0.2, evalSuccess: 0.41, 'tag:repeat': 0.02 }),
  row('sweep beta0.4 seed1', { beta: 0.4, evalSuccess: 0.55, 'tag:repeat': 0.005 }),
  row('plain grpo', { beta: null, evalSuccess: 0.38, 'tag:repeat': 0.03 }),
];

test('the filter: words of the name and comparisons of a column, rates in percent or as fractions; the rest is reported', () => {
  const names = (text: string): string[] => ROWS.filter((r) => passes(parseRunsFilter(text), r)).map((r) => r.name);
  assert.deepEqual(names('sweep'), ['sweep beta0.2 seed1', 'sweep beta0.4 seed1']);
  assert.deepEqual(names('beta>=0.4'), ['sweep beta0.4 seed1']);
  assert.deepEqual(names('beta >= 0.3'), ['sweep beta0.4 seed1'], 'spaces around the operator');
  assert.deepEqual(names('success<50%'), ['sweep beta0.2 seed1', 'plain grpo']);
  assert.deepEqual(names('success<50'), ['sweep beta0.2 seed1', 'plain grpo'], 'a rate above 1 is in percent');
  assert.deepEqual(names('repeat>1% SWEEP'), ['sweep beta0.2 seed1']);
  assert.deepEqual(names('beta<1'), ['sweep beta0.2 seed1', 'sweep beta0.4 seed1'], 'a run without the figure fails a comparison');
  assert.deepEqual(parseRunsFilter('size>3 beta=x').unknown, ['size>3', 'beta=x']);
});

test('the sort: any column either way, no figure last both ways, the name A to Z', () => {
  const names = (rs: RunsRowView[]): string[] => rs.map((r) => r.name);
  assert.deepEqual(names(sortRows(ROWS, 'beta', true)), ['sweep beta0.4 seed1', 'sweep beta0.2 seed1', 'plain grpo']);
  assert.deepEqual(names(sortRows(ROWS, 'beta', false)), ['sweep beta0.2 seed1', 'sweep beta0.4 seed1', 'plain grpo']);
  assert.deepEqual(names(sortRows(ROWS, 'evalSuccess', true)), ['sweep beta0.4 seed1', 'sweep beta0.2 seed1', 'plain grpo']);
  assert.deepEqual(names(sortRows(ROWS, 'run', false)), ['plain grpo', 'sweep beta0.2 seed1', 'sweep beta0.4 seed1']);
});

test('the page messages and the saved state are checked: anything else is dropped', () => {
  assert.deepEqual(parseRunsTableMessage({ type: 'runsTable/open', root: '/r', column: 'tag:repeat' }), {
    type: 'runsTable/open',
    root: '/r',
    column: 'tag:repeat',
  });
  assert.equal(parseRunsTableMessage({ type: 'runsTable/open', root: '/r', column: 'tag:nope' }), undefined);
  assert.equal(parseRunsTableMessage({ type: 'runsTable/compare', roots: ['/a'] }), undefined, 'two runs at least');
  assert.equal(parseRunsTableMessage({ type: 'runsTable/baseline', root: 3 }), undefined);
  assert.deepEqual(parseRunsTableMessage({ type: 'runsTable/baseline', root: null }), { type: 'runsTable/baseline', root: null });
  assert.equal(parseRunsTableMessage({ type: 'runsTable/state', sort: null, filter: 'x'.repeat(501), selected: [] }), undefined);
  assert.deepEqual(parseRunsTableState({ kind: 'runsTable', root: 'x', baseline: '/b', sort: { column: 'beta', descending: 1 } }), {
    kind: 'runsTable',
    root: '',
    baseline: '/b',
  });
  assert.equal(parseRunsTableState({ kind: 'compare' }), undefined);
});
