import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seriesViews, xRange } from '../../src/extension/metrics/seriesViews';
import { meetsTarget, METRIC_TARGETS } from '../../src/core/report/targets';
import { tableOf } from '../../src/core/log/metricsIndex';
import type { MetricsTable } from '../../src/core/log/metricsIndex';

const table = (name: string, values: number[]): MetricsTable =>
  tableOf(
    values.map((_v, i) => i),
    [{ name, values: Float64Array.from(values) }],
  );

test('seriesViews counts the gaps before decimation and keeps the last finite value', () => {
  const values = Array.from({ length: 45 }, (_v, i) => (i % 4 === 0 ? NaN : i / 100));
  values[43] = Infinity;
  const [s] = seriesViews(table('ws/reward_mean', values), 50);
  assert.equal(s!.total, 45);
  assert.equal(s!.gaps, 12 + 1); // every fourth NaN, one Infinity
  assert.deepEqual(s!.last, { x: 42, y: 0.42 });
  assert.equal(s!.off, undefined);
});

test('seriesViews: a series of no finite value says so (gaps = total, no last)', () => {
  const [s] = seriesViews(table('ws/x', [NaN, NaN]), 50);
  assert.equal(s!.gaps, 2);
  assert.equal(s!.last, null);
});

test('seriesViews marks the points that miss the card target and whether the last value meets it', () => {
  const [s] = seriesViews(table('ws/c_mean', [0.01, 0.05, -0.04, 0.02]), 50);
  assert.deepEqual(s!.off, [1, 2]);
  assert.equal(s!.lastMeets, true);
  const [f] = seriesViews(table('ws/fallback_rate', [0.01, 0.07]), 50);
  assert.equal(f!.lastMeets, false);
});

test('meetsTarget: eq within its tolerance, lt, abs, gt', () => {
  assert.equal(meetsTarget(METRIC_TARGETS['ws/sign_flip_rate']!, 0), true);
  assert.equal(meetsTarget(METRIC_TARGETS['ws/sign_flip_rate']!, 0.0001), false);
  assert.equal(meetsTarget(METRIC_TARGETS['ws/executed_is_argmax']!, 0.2023), true);
  assert.equal(meetsTarget(METRIC_TARGETS['ws/executed_is_argmax']!, 0.25), false);
  assert.equal(meetsTarget(METRIC_TARGETS['ws/c_mean']!, 0.034), false);
  assert.equal(meetsTarget(METRIC_TARGETS['ws/gate_mean_diff']!, 0.0353), true);
});

test('xRange spans the first to the last iteration', () => {
  assert.deepEqual(xRange(tableOf([3, 4, 44], [])), { min: 3, max: 44 });
  assert.equal(xRange(tableOf([], [])), null);
});
