import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { overlayViews } from '../../src/extension/overlay/overlayViews';
import type { OverlayRun } from '../../src/extension/overlay/overlayViews';
import { addRuns, parseOverlay, removeRun } from '../../src/extension/overlay/overlayState';
import { canonicalMetric } from '../../src/extension/overlay/metricMatch';
import { seriesViews } from '../../src/extension/metrics/seriesViews';
import { MetricsIndex, tableOf } from '../../src/core/log/metricsIndex';
import type { MetricsTable } from '../../src/core/log/metricsIndex';
import { writeDemo } from '../../src/core/demo/demo';
import { MAX_OVERLAY, parseMetricsMessage } from '../../src/shared/protocol/metrics';

const table = (iterations: number[], cols: Record<string, number[]>): MetricsTable =>
  tableOf(
    iterations,
    Object.entries(cols).map(([name, values]) => ({ name, values: Float64Array.from(values) })),
  );

const run = (root: string, color: number, t: MetricsTable | undefined, problem?: string): OverlayRun => ({
  root,
  name: root.slice(1),
  color,
  table: t,
  ...(problem ? { problem } : {}),
});

test('overlay: metrics match by name; one in a single run is still charted and says which run has it', () => {
  const a = run('/a', 0, table([0, 1, 2], { 'train/loss': [3, 2, 1], 'ws/c_mean': [0.01, 0.02, 0.5] }));
  const b = run('/b', 1, table([0, 1, 2, 3], { 'train/loss': [4, 3, 2, 1], 'perf/only_b': [1, 1, 1, 1] }));
  const v = overlayViews([a, b], 600);
  assert.deepEqual(
    v.series.map((s) => s.name),
    ['train/loss', 'ws/c_mean', 'perf/only_b'],
  );
  const [loss, c, onlyB] = v.series;
  assert.equal(loss!.onlyIn, undefined);
  assert.deepEqual(loss!.y, [3, 2, 1]);
  assert.deepEqual(
    loss!.lines!.map((l) => [l.run, l.metric, l.y]),
    [['/b', 'train/loss', [4, 3, 2, 1]]],
  );
  assert.deepEqual(c!.onlyIn, ['/a']);
  assert.deepEqual(c!.lines, []);
  assert.equal(c!.lastMeets, false, 'the target still judges the primary run');
  assert.equal(onlyB!.absent, true);
  assert.deepEqual(onlyB!.x, []);
  assert.deepEqual(onlyB!.onlyIn, ['/b']);
  assert.deepEqual(
    onlyB!.lines!.map((l) => l.last),
    [{ x: 3, y: 1 }],
  );
  assert.equal(onlyB!.group, 'perf');
  assert.deepEqual(
    v.runs.map((r) => [r.root, r.color, r.primary, r.onlyHere]),
    [
      ['/a', 0, true, 1],
      ['/b', 1, false, 1],
    ],
  );
  assert.deepEqual(v.xRange, { min: 0, max: 3 }, 'the x axis spans every run');
});

test("overlay: a plain GRPO run's rollout/ name of a card quantity joins the ws/ chart, either way round", () => {
  assert.equal(canonicalMetric('rollout/reward_mean'), 'ws/reward_mean');
  assert.equal(canonicalMetric('train/loss'), 'train/loss');
  assert.equal(canonicalMetric('constructor'), 'constructor');
  const ws = run('/ws', 0, table([0, 1], { 'ws/reward_mean': [0.1, 0.2] }));
  const plain = run('/plain', 1, table([0, 1], { 'rollout/reward_mean': [0.05, 0.1] }));
  const [one] = overlayViews([ws, plain], 600).series;
  assert.equal(one!.name, 'ws/reward_mean');
  assert.deepEqual(
    one!.lines!.map((l) => l.metric),
    ['rollout/reward_mean'],
  );
  assert.equal(one!.onlyIn, undefined);
  const back = overlayViews([plain, ws], 600).series;
  assert.equal(back.length, 1);
  assert.equal(back[0]!.name, 'rollout/reward_mean');
  assert.equal(back[0]!.lines![0]!.metric, 'ws/reward_mean');
});

test('overlay: an exact name wins over an equivalent one when a run logs both', () => {
  const a = run('/a', 0, table([0], { 'ws/reward_mean': [1], 'rollout/reward_mean': [2] }));
  const b = run('/b', 1, table([0], { 'rollout/reward_mean': [3] }));
  const v = overlayViews([a, b], 600);
  const byName = new Map(v.series.map((s) => [s.name, s]));
  assert.deepEqual(
    byName.get('rollout/reward_mean')!.lines!.map((l) => l.y),
    [[3]],
  );
  assert.deepEqual(byName.get('ws/reward_mean')!.onlyIn, ['/a']);
});

test('overlay: a run without a metrics log is listed with its problem and does not make every chart "only in"', () => {
  const a = run('/a', 0, table([0, 1], { x: [1, 2] }));
  const v = overlayViews([a, run('/gone', 2, undefined, 'has no ws_metrics.jsonl')], 600);
  assert.equal(v.series[0]!.onlyIn, undefined);
  assert.equal(v.runs[1]!.problem, 'has no ws_metrics.jsonl');
});

test('overlay: each line is decimated on the host for the chart width, the primary one as the one-run dashboard does', () => {
  const n = 5000;
  const its = Array.from({ length: n }, (_v, i) => i);
  const ys = its.map((i) => Math.sin(i / 50));
  const a = table(its, { m: ys });
  const v = overlayViews([run('/a', 0, a), run('/b', 1, table(its, { m: ys.map((y) => y + 1) }))], 300);
  const [one] = seriesViews(a, 300);
  assert.deepEqual(v.series[0]!.x, one!.x);
  assert.deepEqual(v.series[0]!.y, one!.y);
  assert.ok(v.series[0]!.lines![0]!.x.length <= 300, 'the overlaid line is decimated too');
  assert.equal(v.series[0]!.lines![0]!.total, n);
});

test('overlay state: colours stay with their runs across removes, adds and a reload', () => {
  let list = addRuns([], ['/b', '/c', '/d'], '/a');
  assert.deepEqual(
    list.map((o) => [o.root, o.color]),
    [
      ['/b', 1],
      ['/c', 2],
      ['/d', 3],
    ],
  );
  list = removeRun(list, '/c');
  list = addRuns(list, ['/e', '/b', '/a'], '/a');
  assert.deepEqual(
    list.map((o) => [o.root, o.color]),
    [
      ['/b', 1],
      ['/d', 3],
      ['/e', 2],
    ],
    'the new run takes the free colour; the others keep theirs; the primary and a repeat are not added',
  );
  const restored = parseOverlay(JSON.parse(JSON.stringify(list)) as unknown, '/a');
  assert.deepEqual(restored, list);
  const full = addRuns([], ['/1', '/2', '/3', '/4', '/5', '/6', '/7'], '/a');
  assert.equal(full.length, MAX_OVERLAY);
});

test('overlay state: a restored list drops what is not a run entry (bad colours, the primary, repeats)', () => {
  const saved: unknown = [
    { root: '/b', color: 1 },
    { root: '/b', color: 2 },
    { root: '/a', color: 3 },
    { root: '/c', color: 1 },
    { root: '/d', color: 0 },
    { root: '/e', color: 99 },
    { root: 7, color: 4 },
    null,
    { root: '/f', color: 4, extra: '<img>' },
  ];
  assert.deepEqual(parseOverlay(saved, '/a'), [
    { root: '/b', color: 1 },
    { root: '/f', color: 4 },
  ]);
  assert.deepEqual(parseOverlay('nope', '/a'), []);
});

test('dashboard messages: overlay requests are checked on arrival', () => {
  assert.deepEqual(parseMetricsMessage({ type: 'metrics/addRun' }), { type: 'metrics/addRun' });
  assert.deepEqual(parseMetricsMessage({ type: 'metrics/removeRun', run: '/b' }), { type: 'metrics/removeRun', run: '/b' });
  assert.equal(parseMetricsMessage({ type: 'metrics/removeRun', run: 3 }), undefined);
  assert.deepEqual(parseMetricsMessage({ type: 'metrics/openPoint', metric: 'm', iteration: 4, run: '/b' }), {
    type: 'metrics/openPoint',
    metric: 'm',
    iteration: 4,
    run: '/b',
  });
  assert.deepEqual(parseMetricsMessage({ type: 'metrics/openPoint', metric: 'm', iteration: 4 }), {
    type: 'metrics/openPoint',
    metric: 'm',
    iteration: 4,
  });
  assert.equal(parseMetricsMessage({ type: 'metrics/openPoint', metric: 'm', iteration: 4, run: {} }), undefined);
  assert.equal(parseMetricsMessage({ type: 'metrics/copyLink', metric: 'm' }), undefined);
});

test("overlay on the demo's two runs: shared names and the card's reward chart match, the ws-only metrics say so", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlrb-overlay-'));
  try {
    const demo = writeDemo(dir, { trajectories: 6 * 240, hubRepo: false });
    const a = new MetricsIndex(demo.metricsLog);
    const b = new MetricsIndex(demo.baseline!.metricsLog);
    await a.update();
    await b.update();
    const v = overlayViews([run(dir, 0, a.getTable()), run(demo.baseline!.root, 1, b.getTable())], 600);
    const byName = new Map(v.series.map((s) => [s.name, s]));
    assert.equal(byName.get('train/loss')!.onlyIn, undefined);
    assert.equal(byName.get('train/loss')!.lines![0]!.metric, 'train/loss');
    assert.equal(byName.get('ws/reward_mean')!.lines![0]!.metric, 'rollout/reward_mean');
    assert.equal(byName.has('rollout/reward_mean'), false);
    assert.deepEqual(byName.get('ws/c_mean')!.onlyIn, [dir]);
    assert.deepEqual(byName.get('train/ppo_epochs')!.onlyIn, [dir]);
    const onlyA = v.series.filter((s) => s.onlyIn?.[0] === dir).length;
    assert.equal(v.runs[0]!.onlyHere, onlyA);
    assert.ok(onlyA > 10, 'the ws/ metrics are only in the ws-credit run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
