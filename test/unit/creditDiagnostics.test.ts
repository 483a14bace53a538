import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { close, tempDir } from '../helpers';
import { indexRecords } from '../fixtures';
import { computeReport } from '../../src/core/report/report';
import { cBin, windowDiagnostics } from '../../src/core/report/creditDiagnostics';
import { reportJson } from '../../src/core/report/reportJson';
import { IndexStore } from '../../src/core/log/indexStore';
import { Run } from '../../src/core/run/run';
import { DEFAULT_INDEX_OPTIONS } from '../../src/core/log/creditIndex';
import { LOG, runFolder } from '../creditLog';
import { creditDiagnosticsView } from '../../src/extension/report/creditViews';

test('credit diagnostics on a hand-worked log: the gate per iteration with its 95% interval, c by outcome, the dose', async () => {
  const full = computeReport(await indexRecords(LOG));
  const d = full.creditDiagnostics.diagnostics;
  // iteration 0: diffs 0.7 and 0.1, mean 0.4, deviations +-0.3, sample sd sqrt(0.18) = 0.42426,
  // standard error 0.42426 / sqrt 2 = 0.3, half-width 1.959964 * 0.3 = 0.587989: [-0.187989, 0.987989]
  assert.equal(d.gatePerIteration.length, 2);
  const [g0, g1] = d.gatePerIteration as [(typeof d.gatePerIteration)[number], (typeof d.gatePerIteration)[number]];
  assert.equal(g0.iteration, 0);
  assert.equal(g0.groups, 2);
  assert.ok(close(g0.meanDiff, 0.4), `meanDiff ${g0.meanDiff}`);
  assert.ok(close(g0.lo, 0.4 - 0.5879891953620162), `lo ${g0.lo}`);
  assert.ok(close(g0.hi, 0.4 + 0.5879891953620162), `hi ${g0.hi}`);
  // iteration 1: one group, diff -1.4; no interval from one group
  assert.deepEqual(
    { ...g1, meanDiff: Math.round(g1.meanDiff * 1e9) / 1e9 },
    { iteration: 1, meanDiff: -1.4, lo: null, hi: null, groups: 1 },
  );
  // the same mean diff as the report's per-iteration gate figure
  assert.ok(close(full.perIteration[0]!.gateMeanDiff, g0.meanDiff));
  // the histogram: bin i = [-1 + i/10, -1 + (i+1)/10)
  // succeeded: 0.45 -> 14, 0.15 -> 11, 0.35 -> 13, -0.45 -> 5; failed: -0.25 -> 7, 0.15 -> 11, 0.95 -> 19
  const h = d.cHistogram;
  assert.equal(h.bins.length, 21);
  assert.ok(close(h.bins[0], -1) && close(h.bins[10], 0) && close(h.bins[20], 1));
  const only = (pairs: [number, number][]): number[] => {
    const a = new Array<number>(20).fill(0);
    for (const [i, n] of pairs) a[i] = n;
    return a;
  };
  assert.deepEqual(
    h.success,
    only([
      [5, 1],
      [11, 1],
      [13, 1],
      [14, 1],
    ]),
  );
  assert.deepEqual(
    h.failure,
    only([
      [7, 1],
      [11, 1],
      [19, 1],
    ]),
  );
  // the dose, sqrt(mean((0.4 c)^2)) / sqrt(mean(A^2)) over each iteration's credited turns:
  // iteration 0: sum c^2 = .25+.16+.0625+.0225+.1225+.0625+.0025 = 0.6825, sum A^2 = 2+.25+.25+.25+2 = 4.75 (7 turns)
  //   -> 0.4 sqrt(0.6825/4.75) = 0.151623
  // iteration 1: sum c^2 = .2025+.9025+.5625 = 1.6675, sum A^2 = 1+1+0 = 2 (3 turns) -> 0.4 sqrt(1.6675/2) = 0.365242
  assert.equal(d.dosePerIteration.length, 2);
  assert.ok(close(d.dosePerIteration[0]!.dose, 0.4 * Math.sqrt(0.6825 / 4.75)), `dose 0 ${d.dosePerIteration[0]!.dose}`);
  assert.ok(close(d.dosePerIteration[1]!.dose, 0.4 * Math.sqrt(1.6675 / 2)), `dose 1 ${d.dosePerIteration[1]!.dose}`);
  assert.ok(Math.abs(d.dosePerIteration[0]!.dose! - 0.151623) < 1e-6);
  assert.equal(d.doseCard, 0.128);
  // what report --json prints
  assert.deepEqual(reportJson(full).creditDiagnostics, d);
  // a comparison's window of iteration 1 alone: its gate entry, its dose, its three histogram entries
  const w = windowDiagnostics(full.creditDiagnostics, [1]);
  assert.deepEqual(
    w.gatePerIteration.map((g) => g.iteration),
    [1],
  );
  assert.deepEqual(
    w.dosePerIteration.map((x) => x.iteration),
    [1],
  );
  assert.deepEqual(w.cHistogram.success, only([[5, 1]]));
  assert.deepEqual(w.cHistogram.failure, only([[19, 1]]));
});

test('c bins: edges go up, 1 and above in the last bin, -1 and below in the first', () => {
  assert.equal(cBin(-1), 0);
  assert.equal(cBin(-1.5), 0);
  assert.equal(cBin(-0.95), 0);
  assert.equal(cBin(-0.9), 1);
  assert.equal(cBin(0), 10);
  assert.equal(cBin(-0.05), 9);
  assert.equal(cBin(0.3), 13);
  assert.equal(cBin(0.7), 17);
  assert.equal(cBin(0.99), 19);
  assert.equal(cBin(1), 19);
  assert.equal(cBin(3), 19);
});

test('a run without labeled turns: no gate entry, an empty histogram, the dose null at every iteration', async () => {
  const d = computeReport(
    await indexRecords([
      { iteration: 0, group: 0, rollout: 0, reward: 1, A: 1, turns: [{ action: 'wait()', A_t: 1 }] },
      { iteration: 0, group: 0, rollout: 1, reward: 0, A: -1, turns: [{ action: 'wait()', A_t: -1 }] },
    ]),
  ).creditDiagnostics.diagnostics;
  assert.deepEqual(d.gatePerIteration, []);
  assert.ok(d.cHistogram.success.every((n) => n === 0) && d.cHistogram.failure.every((n) => n === 0));
  assert.deepEqual(d.dosePerIteration, [{ iteration: 0, dose: null }]);
});

test('the diagnostics survive the kept report: a second open of the unchanged log gets them from the store', async () => {
  const root = runFolder(LOG);
  const store = new IndexStore(join(tempDir(), 'store'));
  const open = async (): Promise<Run> => {
    const r = (await Run.open(root, DEFAULT_INDEX_OPTIONS, { store }))!;
    await r.update();
    return r;
  };
  const first = await open();
  const fresh = first.report()!.creditDiagnostics;
  await first.keeping;
  const second = await open();
  const kept = second.report()!.creditDiagnostics;
  assert.equal(second.reportSource, 'kept');
  assert.deepStrictEqual(kept, fresh);
  assert.equal(kept.diagnostics.gatePerIteration.length, 2);
});

test("the panels' view: the last gate iteration in words, the bins labelled", async () => {
  const v = creditDiagnosticsView(computeReport(await indexRecords(LOG)).creditDiagnostics.diagnostics);
  // iteration 1 is the last with a gate group: one group, so no interval; iteration 0's interval [-0.188, +0.988] holds 0
  assert.equal(
    v.gateWords,
    'At iteration 1, the last with gate groups: mean diff -1.4000 (no interval from one group) over 1 group. ' +
      'The interval lies above 0 at 0 and below 0 at 0 of 2 iterations.',
  );
  assert.equal(v.histogram.labels[0], '-1 to -0.9');
  assert.equal(v.histogram.labels[10], '0 to 0.1');
  assert.equal(v.histogram.successTotal, 4);
  assert.equal(v.histogram.failureTotal, 3);
});
