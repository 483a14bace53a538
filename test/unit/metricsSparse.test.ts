import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { MetricsIndex, compareMetricNames } from '../../src/core/log/metricsIndex';
import { numberOf, parseTolerant } from '../../src/core/log/tolerantJson';
import { writeDemo } from '../../src/core/demo/demo';
import { chartSelection } from '../../src/extension/metrics/chartCap';
import { seriesViews } from '../../src/extension/metrics/seriesViews';
import { overlayViews } from '../../src/extension/overlay/overlayViews';
import { MAX_CHARTS, moreMetricsLine } from '../../src/shared/moreMetrics';
import { SteppedColumn, floatColumn } from '../../src/core/log/metrics/columns';
import { decodeFrame, encodeFrame } from '../../src/core/log/indexCodec';

/**
 * The dense table as the index built it before it was sparse, written out plainly from
 * the file's text: the later row of an iteration wins whole, every name of a winning row
 * is a column over every iteration, NaN where missing or not finite.
 */
function denseReference(text: string): {
  iterations: number[];
  columns: Map<string, number[]>;
  duplicates: { iteration: number; lines: number[] }[];
  nonFinite: { name: string; count: number; rows: number; lines: number[] }[];
} {
  const rows: { iteration: number; line: number; values: Map<string, number> }[] = [];
  text.split('\n').forEach((raw, i) => {
    let o: unknown;
    try {
      o = parseTolerant(raw);
    } catch {
      return;
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return;
    const rec = o as Record<string, unknown>;
    const it = numberOf(rec['iteration']);
    if (it === undefined || !Number.isFinite(it)) return;
    const values = new Map<string, number>();
    for (const [k, v] of Object.entries(rec)) {
      if (k === 'iteration') continue;
      const n = numberOf(v);
      if (n !== undefined && typeof v !== 'boolean') values.set(k, n);
      else if (v === null) values.set(k, NaN);
    }
    rows.push({ iteration: it, line: i + 1, values });
  });
  const latest = new Map<number, (typeof rows)[number]>();
  const lines = new Map<number, number[]>();
  for (const r of rows) {
    latest.set(r.iteration, r);
    lines.set(r.iteration, [...(lines.get(r.iteration) ?? []), r.line]);
  }
  const iterations = [...latest.keys()].sort((a, b) => a - b);
  const names = [...new Set([...latest.values()].flatMap((r) => [...r.values.keys()]))].sort(compareMetricNames);
  const columns = new Map(
    names.map((n) => [
      n,
      iterations.map((it) => {
        const v = latest.get(it)!.values.get(n);
        return v === undefined || !Number.isFinite(v) ? NaN : v;
      }),
    ]),
  );
  const nonFinite = names
    .map((name) => {
      const bad = [...latest.values()]
        .sort((a, b) => a.line - b.line)
        .filter((r) => r.values.has(name) && !Number.isFinite(r.values.get(name)!));
      return { name, count: bad.length, rows: latest.size, lines: bad.slice(0, 5).map((r) => r.line) };
    })
    .filter((n) => n.count > 0);
  const duplicates = [...lines].filter(([, l]) => l.length > 1).map(([iteration, l]) => ({ iteration, lines: l }));
  return { iterations, columns, duplicates, nonFinite };
}

async function assertSameAsDense(path: string): Promise<MetricsIndex> {
  const m = new MetricsIndex(path);
  await m.update();
  const want = denseReference(readFileSync(path, 'utf8'));
  const t = m.getTable();
  assert.deepStrictEqual([...t.iterations], want.iterations);
  assert.deepStrictEqual([...t.names], [...want.columns.keys()]);
  for (const [name, col] of want.columns) assert.deepStrictEqual([...t.values(name)!], col, name);
  const n = want.iterations.length;
  assert.equal(t.count, n);
  for (const [name, col] of want.columns)
    for (const [from, to] of [
      [0, 2],
      [1, n - 1],
      [n - 3, n],
      [n, n],
      [-5, 3],
      [n - 1, n + 9],
    ] as const)
      assert.deepStrictEqual([...t.values(name, from, to)!], col.slice(Math.max(0, from), Math.max(0, to)), `${name} [${from}, ${to})`);
  assert.deepStrictEqual(m.duplicates(), want.duplicates);
  assert.deepStrictEqual(m.nonFinite(), want.nonFinite);
  return m;
}

/** Requeued twice (iterations 3-4 and 1 again), metrics that come and go, null, NaN, a metric only in a replaced row, a row without its iteration. */
const GAPPY = [
  '{"iteration": 0, "ws/c_mean": 0.1, "train/loss": 3}',
  '{"iteration": 1, "ws/c_mean": null, "train/loss": 2.5, "perf/only_old": 7}',
  '{"iteration": 2, "train/loss": 2}',
  '{"iteration": 3, "ws/c_mean": NaN, "train/loss": 1.5, "perf/tok": 10}',
  '{"iteration": 4, "ws/c_mean": 0.4}',
  '{"loss": 9}',
  '{"iteration": 3, "ws/c_mean": 0.33, "perf/tok": 11}',
  '{"iteration": 4, "train/loss": Infinity}',
  '{"iteration": 1, "ws/c_mean": 0.11}',
  '{"iteration": 7, "ws/c_mean": 0.7, "train/loss": 0.5, "rollout/x": -0}',
].join('\n');

test('sparse metrics give the dense answers: a log with gaps, requeues, null, NaN and a metric only in a replaced row', async () => {
  const p = join(tempDir(), 'ws_metrics.jsonl');
  writeFileSync(p, GAPPY + '\n');
  const m = await assertSameAsDense(p);
  const t = m.getTable();
  // hand-worked: iteration 1's later row has no loss and no perf/only_old
  assert.deepStrictEqual([...t.iterations], [0, 1, 2, 3, 4, 7]);
  assert.deepStrictEqual([...t.values('train/loss')!], [3, NaN, 2, NaN, NaN, 0.5]);
  assert.deepStrictEqual([...t.values('ws/c_mean')!], [0.1, 0.11, NaN, 0.33, NaN, 0.7]);
  assert.equal(t.values('perf/only_old'), undefined, 'only in a replaced row: no chart');
  assert.ok(Object.is(t.values('rollout/x')![5], -0));
  assert.deepStrictEqual(m.duplicates(), [
    { iteration: 1, lines: [2, 9] },
    { iteration: 3, lines: [4, 7] },
    { iteration: 4, lines: [5, 8] },
  ]);
});

test('sparse metrics give the dense answers on the demo run, and after a partial last line is completed', async () => {
  const root = tempDir();
  const demo = writeDemo(root, { trajectories: 6 * 240, hubRepo: false, baseline: false });
  await assertSameAsDense(demo.metricsLog);
  const p = join(tempDir(), 'ws_metrics.jsonl');
  writeFileSync(p, GAPPY + '\n{"iteration": 8, "ws/c_');
  const m = new MetricsIndex(p);
  await m.update();
  appendFileSync(p, 'mean": 0.8, "new/one": 1}\n{"iteration": 2, "train/loss": 22}\n');
  await m.update();
  const fresh = await assertSameAsDense(p);
  assert.deepStrictEqual([...m.getTable().names], [...fresh.getTable().names]);
  for (const n of fresh.getTable().names) assert.deepStrictEqual([...m.getTable().values(n)!], [...fresh.getTable().values(n)!], n);
  assert.deepStrictEqual(m.duplicates(), fresh.duplicates());
});

test('a log of 20,000 metrics, one a line: the dashboard charts 200 (pinned and card targets first) and says how many more there are', async () => {
  const p = join(tempDir(), 'ws_metrics.jsonl');
  const n = 20_000;
  writeFileSync(p, Array.from({ length: n }, (_, i) => `{"iteration": ${i}, "k/m${String(i).padStart(5, '0')}": ${i}}\n`).join(''));
  const m = new MetricsIndex(p);
  await m.update();
  const t = m.getTable();
  assert.equal(t.names.length, n);
  assert.equal(t.iterations.length, n);
  let built = 0;
  const counted = { ...t, values: (name: string): Float64Array | undefined => (built++, t.values(name)) };
  const pick = chartSelection(t.names, ['k/m19999']);
  const views = seriesViews(counted, 600, pick.names);
  assert.equal(views.length, MAX_CHARTS);
  assert.equal(built, MAX_CHARTS, 'only the charted metrics are built');
  assert.equal(pick.more, n - MAX_CHARTS);
  assert.ok(pick.names.includes('k/m19999'), 'a pinned metric past the cap is charted');
  assert.equal(pick.names[0], 'k/m00000');
  assert.ok(!pick.names.includes('k/m00199'), 'the pin took the last place');
  // a series of one value at iteration 5 of 20,000: 19,999 gaps, last at 5
  const one = views.find((v) => v.name === 'k/m00005')!;
  assert.equal(one.gaps, n - 1);
  assert.deepStrictEqual(one.last, { x: 5, y: 5 });
  assert.equal(
    moreMetricsLine(pick.more),
    `19800 more metrics not charted: a dashboard charts at most 200 (pinned ones and card targets first, then in order)`,
  );
  assert.equal(moreMetricsLine(0), '');
  const overlay = overlayViews([{ root: '/a', name: 'a', color: 0, table: t }], 600);
  assert.equal(overlay.series.length, MAX_CHARTS);
  assert.equal(overlay.more, n - MAX_CHARTS);
});

test('a card target past the cap is charted: the targets come first', () => {
  const names = [...Array.from({ length: 300 }, (_, i) => `a/${i}`), 'ws/c_mean'];
  const pick = chartSelection(names, []);
  assert.ok(pick.names.includes('ws/c_mean'));
  assert.equal(pick.names.length, MAX_CHARTS);
  assert.equal(pick.more, 101);
  assert.deepStrictEqual(chartSelection(['x', 'y'], []), { names: ['x', 'y'], more: 0 });
});

test('the columns behind the sparse store: blocks past 65,536, even steps kept as first + step until one breaks them, truncation anywhere', () => {
  const plain: number[] = [];
  const col = new SteppedColumn(floatColumn);
  const raw = floatColumn();
  const check = (): void => {
    assert.equal(col.length, plain.length);
    for (const i of [0, 1, 65_535, 65_536, 65_537, plain.length - 1])
      if (i >= 0 && i < plain.length) assert.equal(col.at(i), plain[i], `at ${i}`);
  };
  for (let i = 0; i < 70_000; i++) {
    col.push(3 + 2 * i);
    plain.push(3 + 2 * i);
  }
  assert.deepEqual(col.even, { first: 3, step: 2 });
  check();
  col.truncate(1);
  plain.length = 1;
  col.push(10);
  plain.push(10);
  assert.deepEqual(col.even, { first: 3, step: 7 }, 'a new step after a cut to one value');
  col.push(18);
  plain.push(18);
  assert.equal(col.even, undefined, 'uneven: stored');
  for (let i = 0; i < 140_000; i++) {
    col.push(20 + i * 0.5);
    plain.push(20 + i * 0.5);
    raw.push(i);
  }
  check();
  col.truncate(65_536);
  plain.length = 65_536;
  check();
  col.push(-1);
  plain.push(-1);
  check();
  raw.truncate(65_537);
  assert.equal(raw.length, 65_537);
  assert.equal(raw.at(65_536), 65_536);
  assert.deepEqual(
    raw.parts().map((p) => p.length),
    [65_536, 1],
  );
});

test('a saved frame of the sparse store (uneven lines, requeued iterations, a metric on every other row) restores to the same answers', async () => {
  const p = join(tempDir(), 'ws_metrics.jsonl');
  const every = Array.from({ length: 30 }, (_, i) => `{"iteration": ${i * 10}${i % 2 ? `, "odd": ${i}` : ''}, "all": ${i}}`).join('\n');
  writeFileSync(p, GAPPY + '\n' + every + '\n');
  const a = new MetricsIndex(p);
  await a.update();
  const snap = a.snapshot()!;
  const frame = decodeFrame(Buffer.concat(encodeFrame(snap.header, snap.sections)))!;
  const b = new MetricsIndex(p);
  assert.equal(b.restoreFrame(frame, snap.committed), true);
  const ta = a.getTable();
  const tb = b.getTable();
  assert.deepStrictEqual([...tb.iterations], [...ta.iterations]);
  assert.deepStrictEqual([...tb.names], [...ta.names]);
  for (const n of ta.names) assert.deepStrictEqual(tb.values(n), ta.values(n), n);
  assert.deepStrictEqual(b.duplicates(), a.duplicates());
  assert.deepStrictEqual(b.nonFinite(), a.nonFinite());
  assert.equal(b.rowCount, a.rowCount);
});
