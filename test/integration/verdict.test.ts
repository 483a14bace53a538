import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { close, tempDir } from '../helpers';
import { rlrb, rlrbJson } from '../cliRun';
import { Run } from '../../src/core/run/run';
import { writeDemo } from '../../src/core/demo/demo';
import { judgeMetric, reportLines } from '../../src/core/report/targets';
import type { ReportIteration } from '../../src/core/report/reportJson';
import type { SignFlipGroup } from '../../src/core/report/signFlips';
import type { TwinDisagreement } from '../../src/core/report/twins';

const FIX = resolve(__dirname, '../../../test/fixtures/flips');

function run(): string {
  const dir = join(tempDir(), 'flips');
  cpSync(FIX, dir, { recursive: true });
  return dir;
}

/*
 * test/fixtures/flips by hand (beta 0.4, tau 20):
 * iteration 0, group 0: rewards 1, 1, 0, 0, -1; A = (r - 0.2) / sqrt(0.56) = 1.0690, 1.0690, -0.2673, -0.2673, -1.6036
 *   one labeled turn each: c = 0, 1, 1, -1, -0.5 (all recomputed equal); rollout 2: A_t = -0.2673 + 0.4 > 0, a sign flip
 *   signFlipRate 1/5, fallbackRate 0/5, argmax 3/5 (rollouts 0-2), meanC 0.5/5 = 0.1,
 *   dose 0.4 sqrt((0 + 1 + 1 + 1 + 0.25) / 5) / sqrt(mean A^2 = 1) = 0.4 sqrt(0.65) = 0.3224903,
 *   gate: (0 + 1) / 2 - (1 - 1 - 0.5) / 3 = 0.6666667
 * iteration 1, group 0: rewards 1, 0, 0, 0, 0; A = 2, -0.5 x 4; rollouts 0 and 1 labeled
 *   r0: c = (0 + 10 + 10 + 10) / 4 / 20 = 0.375; r1: null and done dropped, c = -10 / 20 = -0.5, plus a fallback turn
 *   signFlipRate 0/2, fallbackRate 1/3, argmax 1/2, meanC -0.0625,
 *   dose 0.4 sqrt((0.140625 + 0.25) / 2) / sqrt((4 + 0.25) / 2) = 0.1212678, gate 0.375 + 0.5 = 0.875
 * the only sign-flip group is (0, 0): a -1 reward, min|A| = 0.2673 < beta
 * metrics: it 0 logs sign_flip_rate 0 (twin 0.2), dose 0.3 (twin 0.3224903), c_mean 0.1000004 (within 1e-6);
 *   it 1 logs gate_mean_diff 0.9 (twin 0.875), fallback NaN (a gap: not compared); it 2 has no credit rows
 */
test('report --json perIteration, signFlipGroups and twinDisagreements equal the hand-worked fixture', () => {
  const o = rlrbJson('report', run());
  const per = o['perIteration'] as ReportIteration[];
  assert.equal(per.length, 2);
  const want = [
    [0, 5, 0.2, 0, 0.6, 0.1, 0.4 * Math.sqrt(0.65), 2 / 3],
    [1, 5, 0, 1 / 3, 0.5, -0.0625, 0.12126781251816648, 0.875],
  ];
  per.forEach((p, i) => {
    const w = want[i]!;
    assert.equal(p.iteration, w[0]);
    assert.equal(p.trajectories, w[1]);
    const got = [p.signFlipRate, p.fallbackRate, p.executedIsArgmaxRate, p.meanC, p.rmsBetaCOverRmsA, p.gateMeanDiff];
    got.forEach((v, k) => assert.ok(close(v, w[k + 2]!, 1e-9), `iteration ${i} figure ${k}: ${v} != ${w[k + 2]}`));
  });
  const groups = o['signFlipGroups'] as SignFlipGroup[];
  assert.equal(groups.length, 1);
  assert.deepEqual(
    { ...groups[0]!, minAbsA: 0 },
    { iteration: 0, group: 0, flips: 1, rewards: [1, 1, 0, 0, -1], minAbsA: 0, formatFailure: true },
  );
  assert.ok(close(groups[0]!.minAbsA, 0.2 / Math.sqrt(0.56), 1e-12));
  const twins = o['twinDisagreements'] as TwinDisagreement[];
  assert.deepEqual(
    twins.map((t) => [t.iteration, t.metric, t.logged]),
    [
      [0, 'ws/sign_flip_rate', 0],
      [0, 'ws/rms_beta_c_over_rms_A', 0.3],
      [1, 'ws/gate_mean_diff', 0.9],
    ],
  );
  assert.ok(close(twins[0]!.recomputed, 0.2) && close(twins[1]!.recomputed, 0.4 * Math.sqrt(0.65)) && close(twins[2]!.recomputed, 0.875));
});

test('the text report says all sign flips sit in -1 groups below beta, and lists the twin disagreements', () => {
  const r = rlrb('report', run());
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Sign flips: 1 in 1 group\(s\)/);
  assert.match(r.out, /all 1 sign flip is in groups with a -1 reward, where min\|A\| < beta: the card's guarantee assumes binary rewards/);
  assert.match(r.out, /differ from their recomputed twins by more than 1e-6: 3/);
  assert.match(r.out, /1 +ws\/gate_mean_diff +\+0\.9000 +\+0\.8750/);
});

test("one judgement: the demo's ws/c_mean chip is the report's mean-c line over the whole run, with the last value beside it", async () => {
  const dir = tempDir();
  writeDemo(dir, { hubRepo: false, baseline: false });
  const demo = (await Run.open(dir))!;
  await demo.update();
  const report = demo.report()!.report;
  const table = demo.metrics!.getTable();
  const values = table.values('ws/c_mean')!;
  const j = judgeMetric('ws/c_mean', report, { iterations: table.iterations, values })!;
  const line = reportLines(report).find((l) => l.key === 'meanC')!;
  assert.equal(j.mark, line.mark);
  assert.equal(j.value, report.meanC);
  assert.equal(j.source, 'report');
  assert.equal(j.lastIteration, 44);
  assert.equal(j.last, values[values.length - 1]);
  // without a report the same rule judges the logged mean over the whole run, not the last value
  const logged = judgeMetric('ws/c_mean', undefined, { iterations: [0, 1], values: [0.01, 0.035] })!;
  assert.equal(logged.mark, 'pass');
  assert.ok(close(logged.value, 0.0225));
  // the demo's evaluations: checkpoints every 10 iterations and the last, A ahead at the final one
  const ev = demo.evalSummary()!;
  assert.deepEqual(
    ev.iterations.map((i) => i.iteration),
    [9, 19, 29, 39, 44],
  );
  assert.ok(ev.iterations.every((i) => i.tasks === 274 && i.samples === 274 * 4));
});
