import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl, close } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CreditIndex, DEFAULT_INDEX_OPTIONS } from '../../src/core/log/creditIndex';
import { computeReport } from '../../src/core/report/report';
import { auroc, twoSidedP } from '../../src/core/report/stats';

async function reportOf(text: string, opts = DEFAULT_INDEX_OPTIONS): Promise<ReturnType<typeof computeReport>> {
  const dir = tempDir();
  // the same file name in every folder, so that warnings compare equal
  const base = join(dir, 'run');
  mkdirSync(base);
  mkdirSync(join(base, 'logs'));
  const p = join(base, 'logs', 'ws_credit_log.jsonl');
  writeFileSync(p, text);
  const idx = new CreditIndex(p, opts);
  await idx.update();
  return computeReport(idx);
}

test('every figure of section 4 on a hand-worked log', async () => {
  const { report: r, perIteration } = await reportOf(jsonl(HAND_LOG));
  assert.equal(r.trajectories, 5);
  assert.equal(r.iterations, 2);
  assert.equal(r.labeledTurns, 9);
  assert.equal(r.creditedTurns, 7);
  assert.ok(close(r.signFlipRate, 1 / 7), `signFlipRate ${r.signFlipRate}`);
  assert.ok(close(r.fallbackRate, 1 / 8), `fallbackRate ${r.fallbackRate}`);
  assert.ok(close(r.executedIsArgmaxRate, 4 / 7), `argmax ${r.executedIsArgmaxRate}`);
  const cs = [0.0625, 1, -0.5, -1, 0.1, 1, 0];
  assert.ok(close(r.meanC, cs.reduce((a, b) => a + b) / 7), `meanC ${r.meanC}`);
  const a2 = [1, 1, 1, 0.25, 0.25, 0.04, 0.04];
  const expectRms = Math.sqrt(cs.reduce((s, c) => s + (0.4 * c) ** 2, 0) / 7) / Math.sqrt(a2.reduce((s, x) => s + x, 0) / 7);
  assert.ok(close(r.rmsBetaCOverRmsA, expectRms), `rms ${r.rmsBetaCOverRmsA} vs ${expectRms}`);
  assert.equal(r.cMismatches, 1);
  assert.equal(r.aTMismatches, 1);
  // gate: diffs 1.03125 (iteration 0) and -0.95 (iteration 1)
  const g = r.gate;
  assert.equal(g.groups, 2);
  assert.ok(close(g.meanDiff, 0.040625));
  const sd = Math.sqrt(((1.03125 - 0.040625) ** 2 + (-0.95 - 0.040625) ** 2) / 1);
  assert.ok(close(g.t, 0.040625 / (sd / Math.SQRT2)));
  assert.ok(close(g.p, twoSidedP(0.040625 / (sd / Math.SQRT2))));
  assert.ok(g.p! > 0.96 && g.p! < 0.97);
  assert.equal(g.iterations, 2);
  assert.equal(g.iterationsPositive, 1);
  assert.ok(close(g.signTestP, 1));
  assert.ok(close(g.firstHalfMeanDiff, 1.03125));
  assert.ok(close(g.secondHalfMeanDiff, -0.95));
  // AUROC: T1 0.53125 (succ), T4 -0.45 (succ) vs T2 -0.5, T5 0.5 (fail): 3 of 4 pairs
  assert.ok(close(r.auroc, 0.75));
  assert.equal(r.skippedLines, 0);
  assert.equal(perIteration.length, 2);
  assert.ok(close(perIteration[1]!.signFlipRate, 1 / 4));
  assert.ok(close(perIteration[0]!.gateMeanDiff, 1.03125));
  assert.ok(r.warnings.some((w) => w.includes('logged c differs')));
  assert.ok(r.warnings.some((w) => w.includes('A_t differs')));
});

test('a figure with no data is null', async () => {
  const { report: r } = await reportOf(
    jsonl([{ iteration: 0, group: 0, rollout: 0, reward: 1, A: 0, turns: [{ action: 'wait()', A_t: 0 }] }]),
  );
  assert.equal(r.signFlipRate, null);
  assert.equal(r.fallbackRate, null);
  assert.equal(r.executedIsArgmaxRate, null);
  assert.equal(r.meanC, null);
  assert.equal(r.rmsBetaCOverRmsA, null);
  assert.equal(r.auroc, null);
  assert.equal(r.gate.meanDiff, null);
  assert.equal(r.gate.t, null);
  assert.equal(r.gate.signTestP, null);
  assert.equal(r.gate.groups, 0);
});

test('aliases and a user mapping give the same report as the reference names', async () => {
  const renamed = HAND_LOG.map((t) => {
    const { iteration, group, rollout, reward, A, labeled, turns, ...rest } = t;
    return {
      ...rest,
      rollout_id: iteration,
      group_idx: group,
      sample_idx: rollout,
      score: reward,
      advantage: A,
      is_labeled: labeled,
      steps: (turns as Record<string, unknown>[]).map((u) => {
        const { action, scores, same, c, A_t, masked, ...urest } = u;
        return {
          ...urest,
          executed_action: action,
          rm_scores: scores,
          same_flags: same,
          credit: c,
          adjusted_advantage: A_t,
          ...(masked !== undefined ? { credit_masked: masked } : {}),
        };
      }),
    };
  });
  const ref = (await reportOf(jsonl(HAND_LOG))).report;
  const alias = (await reportOf(jsonl(renamed))).report;
  const noPaths = (r: typeof ref): unknown => ({ ...r, warnings: r.warnings.map((w) => w.replace(/^\/\S+: /, '')) });
  assert.deepEqual(noPaths(alias), noPaths(ref));
  const mapped = HAND_LOG.map((t) => {
    const { reward, ...rest } = t;
    return { ...rest, judge_outcome: reward };
  });
  const withMap = (await reportOf(jsonl(mapped), { ...DEFAULT_INDEX_OPTIONS, mapping: { reward: 'judge_outcome' } })).report;
  assert.deepEqual(noPaths(withMap), noPaths(ref));
  const without = (await reportOf(jsonl(mapped))).report;
  assert.ok(
    without.warnings.some((w) => w.includes('reward')),
    without.warnings.join('\n'),
  );
});

test('beta and tau change the recomputation', async () => {
  const r = (await reportOf(jsonl(HAND_LOG), { ...DEFAULT_INDEX_OPTIONS, credit: { beta: 0.4, tau: 10 } })).report;
  // with tau 10, T1 turn a recomputes to 0.125 (logged 0.0625) and T2 turn a to -1 (logged -0.5)
  assert.equal(r.cMismatches, 3);
  const r2 = (await reportOf(jsonl(HAND_LOG), { ...DEFAULT_INDEX_OPTIONS, credit: { beta: 0.5, tau: 20 } })).report;
  assert.ok(r2.aTMismatches > 1);
});

test('AUROC counts ties half', () => {
  assert.equal(auroc([1, 1], [true, false]), 0.5);
  assert.equal(auroc([0, 1, 2, 3], [false, false, true, true]), 1);
  assert.equal(auroc([0, 1, 1, 3], [false, true, false, true]), 0.875);
  assert.equal(auroc([1, 2], [true, true]), null);
});

test('AUROC: the counted way equals the ranked definition to the last bit, ties and signed zeros included', () => {
  /** The definition: average ranks over all scores, ties sharing theirs. */
  const ranked = (scores: number[], positive: boolean[]): number => {
    const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
    let sum = 0;
    for (let i = 0; i < order.length;) {
      let j = i;
      while (j + 1 < order.length && scores[order[j + 1]!] === scores[order[i]!]) j++;
      for (let k = i; k <= j; k++) if (positive[order[k]!]) sum += (i + j) / 2 + 1;
      i = j + 1;
    }
    const p = positive.filter(Boolean).length;
    return (sum - (p * (p + 1)) / 2) / (p * (positive.length - p));
  };
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 2; n < 400; n += 37) {
    // few distinct values: many ties within and across the classes
    const scores = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? -0 : Math.round(rnd() * 9) / 4 - 1));
    const positive = Array.from({ length: n }, (_, i) => i === 0 || (i !== 1 && rnd() > 0.6));
    assert.equal(auroc(scores, positive), ranked(scores, positive), `n ${n}`);
  }
  const inf = [0.1, Infinity, -Infinity, 0.1];
  const infPositive = [true, false, true, false];
  assert.equal(auroc(inf, infPositive), ranked(inf, infPositive), 'infinite scores');
  assert.equal(auroc(inf, infPositive), 0.125);
});
