import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { close, tempDir } from '../helpers';
import { Run } from '../../src/core/run/run';
import { reportLines } from '../../src/core/report/targets';
import { judgementView, recomputedSeries, twinView, withVerdict } from '../../src/extension/metrics/verdictViews';
import { seriesLine, seriesViews } from '../../src/extension/metrics/seriesViews';
import type { SeriesView } from '../../src/shared/protocol/metrics';
import { reportVerdictView } from '../../src/extension/report/verdictViews';

const FIX = resolve(__dirname, '../../../test/fixtures/flips');

async function flips(): Promise<Run> {
  const dir = join(tempDir(), 'flips');
  cpSync(FIX, dir, { recursive: true });
  const r = (await Run.open(dir))!;
  await r.update();
  return r;
}

/*
 * test/fixtures/flips (worked by hand in verdict.test.ts): sign flips 1 of 5 at iteration 0 (recomputed 0.2, logged 0),
 * 0 of 2 at iteration 1; the gate's mean diff 0.875 at iteration 1 against a logged 0.9; c_mean logged within 1e-6 of its twin.
 */
test("the dashboard's chip judges a target over the whole run with the report's mark; the last value beside it", async () => {
  const r = await flips();
  const full = r.report()!;
  const table = r.metrics!.getTable();
  const j = judgementView('ws/sign_flip_rate', full, table)!;
  const line = reportLines(full.report).find((l) => l.key === 'signFlipRate')!;
  assert.equal(j.source, 'report');
  assert.equal(j.value, line.value);
  assert.equal(j.mark, line.mark);
  // one flip among the run's sign-flip candidates: not exactly 0, whatever the last logged value says
  assert.equal(j.mark, 'fail');
  assert.ok(j.value! > 0);
  assert.equal(judgementView('ws/no_target_here', full, table), undefined);
});

test('the recomputed twin of a logged figure and the iterations where they differ by more than 1e-6', async () => {
  const r = await flips();
  const full = r.report()!;
  const flip = twinView('ws/sign_flip_rate', full)!;
  assert.equal(flip.twin, 'signFlipRate');
  assert.deepEqual(flip.x, [0, 1]);
  assert.ok(close(flip.y[0], 0.2) && flip.y[1] === 0);
  assert.deepEqual(flip.disagreements, [{ iteration: 0, logged: 0, recomputed: flip.y[0] }]);
  const gate = twinView('ws/gate_mean_diff', full)!;
  assert.deepEqual(
    gate.disagreements.map((d) => [d.iteration, d.logged]),
    [[1, 0.9]],
  );
  assert.ok(close(gate.disagreements[0]!.recomputed, 0.875));
  assert.deepEqual(twinView('ws/c_mean', full)!.disagreements, []);
  assert.equal(twinView('reward/mean', full), undefined);
  assert.equal(twinView('ws/sign_flip_rate', undefined), undefined);
});

test("a long run's twin is decimated to the chart's width as its logged line is (gaps kept); every disagreement stays listed", async () => {
  const r = await flips();
  const full = r.report()!;
  const one = full.perIteration[0]!;
  // 2,000 iterations, one without a value: the dashboard sent each twin whole (2,000 points a chart) before
  const perIteration = Array.from({ length: 2000 }, (_, i) => ({
    ...one,
    iteration: i,
    signFlipRate: i === 700 ? null : Math.sin(i / 40),
  }));
  const long = { ...full, perIteration };
  const twin = twinView('ws/sign_flip_rate', long, 300)!;
  const logged = seriesLine(
    perIteration.map((p) => p.iteration),
    Float64Array.from(perIteration, (p) => p.signFlipRate ?? Number.NaN),
    300,
    undefined,
  );
  assert.deepEqual(twin.x, logged.x);
  assert.deepEqual(twin.y, logged.y);
  assert.ok(twin.x.length <= 310, `${twin.x.length} points for 300 pixels`);
  assert.deepEqual([twin.x[0], twin.x.at(-1)], [0, 1999]);
  assert.equal(twin.y.filter((y) => y === null).length, 1, 'the iteration without a value is still a gap');
  assert.deepEqual(twin.disagreements, twinView('ws/sign_flip_rate', full)!.disagreements);
  // a short run's twin is whole, as before
  assert.deepEqual(twinView('ws/sign_flip_rate', full, 300)!.x, [0, 1]);
  // the dashboard's push decimates it for the charts' width
  const base: SeriesView = { name: 'ws/sign_flip_rate', group: 'ws', x: [], y: [], total: 0, gaps: 0, last: null };
  const [flip] = withVerdict([base], long, r.metrics!.getTable(), 300);
  assert.deepEqual(flip!.twin?.x, twin.x);
});

test('withVerdict adds the judgement and the twin to the primary run series only', async () => {
  const r = await flips();
  const table = r.metrics!.getTable();
  const base = (name: string, absent = false): SeriesView => ({
    name,
    group: 'ws',
    x: [],
    y: [],
    total: 0,
    gaps: 0,
    last: null,
    ...(absent ? { absent } : {}),
  });
  const [flip, plain, absent] = withVerdict([base('ws/sign_flip_rate'), base('reward/mean'), base('ws/c_mean', true)], r.report(), table);
  assert.equal(flip!.judgement?.mark, 'fail');
  assert.equal(flip!.twin?.disagreements.length, 1);
  assert.deepEqual(plain, base('reward/mean'));
  assert.deepEqual(absent, base('ws/c_mean', true));
});

test("the report's sign-flip section and twin list: the fixture's one group, its line, the three disagreements", async () => {
  const r = await flips();
  const v = reportVerdictView(r.report()!, 0.4);
  assert.equal(v.signFlipGroups.length, 1);
  const g = v.signFlipGroups[0]!;
  assert.deepEqual([g.iteration, g.group, g.flips, g.rewards, g.formatFailure], [0, 0, 1, [1, 1, 0, 0, -1], true]);
  assert.ok(close(g.minAbsA, 0.2 / Math.sqrt(0.56)), String(g.minAbsA));
  assert.equal(
    v.signFlipLine,
    "all 1 sign flip is in groups with a -1 reward, where min|A| < beta: the card's guarantee assumes binary rewards",
  );
  // with beta below min|A| the line keeps only the format-failure half
  assert.equal(reportVerdictView(r.report()!, 0.1).signFlipLine, 'all 1 sign flip is in groups with a -1 reward');
  assert.deepEqual(
    v.twinDisagreements.map((d) => [d.iteration, d.metric]),
    [
      [0, 'ws/sign_flip_rate'],
      [0, 'ws/rms_beta_c_over_rms_A'],
      [1, 'ws/gate_mean_diff'],
    ],
  );
});

/*
 * The flips run with a metrics log that logs the sign-flip rate, c_mean only as NaN, tau only as NaN and nothing else of the
 * card: c_mean is charted from its twin (meanC per iteration), the four diagnostics the log lacks are added from theirs, and
 * tau (no twin) says it has no finite value instead of being judged.
 */
test('card diagnostics the metrics log lacks (or holds only as NaN) are charted from their recomputed twins, labelled', async () => {
  const r = await flips();
  const metrics = join(r.location.root, 'logs', 'ws_metrics.jsonl');
  writeFileSync(
    metrics,
    '{"iteration": 0, "ws/sign_flip_rate": 0, "ws/c_mean": NaN, "ws/tau_running": NaN}\n' +
      '{"iteration": 1, "ws/sign_flip_rate": 0, "ws/c_mean": NaN, "ws/tau_running": NaN}\n',
  );
  const again = (await Run.open(r.location.root))!;
  await again.update();
  const full = again.report()!;
  const table = again.metrics!.getTable();
  const out = withVerdict(seriesViews(table, 600), full, table, 600);
  const by = new Map(out.map((s) => [s.name, s]));
  const flip = by.get('ws/sign_flip_rate')!;
  assert.equal(flip.recomputed, undefined, 'logged: its own line, the twin beside it');
  assert.equal(flip.twin?.disagreements.length, 1);
  const c = by.get('ws/c_mean')!;
  assert.deepEqual(c.recomputed, { twin: 'meanC', why: 'no finite value logged' });
  assert.deepEqual(c.x, [0, 1]);
  assert.deepEqual(
    c.y,
    full.perIteration.map((p) => p.meanC),
  );
  assert.equal(c.judgement?.source, 'report', "judged on the report's recomputed figure");
  for (const [metric, twin] of [
    ['ws/fallback_rate', 'fallbackRate'],
    ['ws/executed_is_argmax', 'executedIsArgmaxRate'],
    ['ws/rms_beta_c_over_rms_A', 'rmsBetaCOverRmsA'],
    ['ws/gate_mean_diff', 'gateMeanDiff'],
  ] as const) {
    const s = by.get(metric)!;
    assert.deepEqual(s.recomputed, { twin, why: 'not logged' }, metric);
    assert.deepEqual(
      s.y,
      full.perIteration.map((p) => p[twin]),
      metric,
    );
  }
  const tau = by.get('ws/tau_running')!;
  assert.equal(tau.noFiniteValue, true);
  assert.equal(tau.judgement, undefined, 'no finite value: nothing judged');
  assert.equal(recomputedSeries('ws/c_mean', undefined, 600, 'not logged'), undefined, 'no report, nothing to recompute');
});
