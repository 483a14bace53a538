import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareEvaluations, pairedFigures } from '../../src/core/eval/evalFigures';
import type { EvalOutcome, EvaluationComparison, PairedFigures } from '../../src/core/eval/evalFigures';
import { Z80, Z95, conclusionOf, decideVerdict, mde80 } from '../../src/core/eval/verdict';
import { entryWords, shortP, signedPoints, verdictWords } from '../../src/core/eval/verdictWords';

test('conclusionOf: better above 0, worse below 0, inconclusive across 0, touching 0 or without an interval', () => {
  assert.equal(conclusionOf([0.001, 0.2]), 'better');
  assert.equal(conclusionOf([-0.2, -0.001]), 'worse');
  assert.equal(conclusionOf([-0.049, 0.194]), 'inconclusive');
  assert.equal(conclusionOf([0, 0.3]), 'inconclusive', 'a bound at exactly 0 is not above it');
  assert.equal(conclusionOf([-0.3, 0]), 'inconclusive');
  assert.equal(conclusionOf(null), 'inconclusive');
});

test('mde80 = (z95 + z80) sd / sqrt(n); null below two tasks; 0 without spread', () => {
  assert.equal(Z95, 1.959963984540054);
  assert.equal(Z80, 0.8416212335729143);
  assert.ok(Math.abs(mde80(0.5, 25)! - (2.8015852181129683 * 0.5) / 5) < 1e-15);
  assert.equal(mde80(null, 1), null);
  assert.equal(mde80(0.3, 1), null);
  assert.equal(mde80(0, 10), 0);
});

const ep = (iteration: number, task: string, reward: number): EvalOutcome => ({ iteration, task, reward });

test('pairedFigures carries conclusion and mde80: n < 2, sd = 0 and a spread, each by hand', () => {
  const one = pairedFigures([[1, 0]]);
  assert.deepEqual([one.ci95, one.p, one.conclusion, one.mde80], [null, null, 'inconclusive', null]);
  // every task +0.5: sd 0, the interval a point above 0 (better), no t or p, and any difference would show
  const same = pairedFigures([
    [1, 0.5],
    [0.5, 0],
    [0.75, 0.25],
  ]);
  assert.deepEqual([same.ci95, same.p, same.conclusion, same.mde80], [[0.5, 0.5], null, 'better', 0]);
  const tied = pairedFigures([
    [1, 1],
    [0, 0],
  ]);
  assert.deepEqual([tied.ci95, tied.conclusion, tied.mde80], [[0, 0], 'inconclusive', 0]);
  // diffs 1, 0, -1, 0: mean 0, sd sqrt(2/3), se sqrt(2/3)/2
  const spread = pairedFigures([
    [1, 0],
    [1, 1],
    [0, 1],
    [0, 0],
  ]);
  const se = Math.sqrt(2 / 3) / 2;
  assert.equal(spread.conclusion, 'inconclusive');
  assert.ok(Math.abs(spread.mde80! - (Z95 + Z80) * se) < 1e-12);
  assert.ok(Math.abs(spread.ci95![1] - Z95 * se) < 1e-12);
});

test('compare --json entries: every perIteration entry, final and pooled carry conclusion and mde80', () => {
  const a = [ep(1, 'a', 1), ep(1, 'b', 1), ep(2, 'a', 1), ep(2, 'b', 0)];
  const b = [ep(1, 'a', 0), ep(1, 'b', 0), ep(2, 'a', 0), ep(2, 'b', 0)];
  const e = compareEvaluations(a, b)!;
  for (const x of [...e.perIteration, e.final!, e.pooled]) {
    assert.ok('conclusion' in x && 'mde80' in x, JSON.stringify(x));
  }
  assert.deepEqual(
    e.perIteration.map((x) => x.conclusion),
    ['better', 'inconclusive'],
  );
  assert.equal(e.final, e.perIteration[1]);
});

test('decideVerdict: the final conclusion, the pooled one, and whether they disagree', () => {
  assert.deepEqual(decideVerdict({ conclusion: 'inconclusive' }, { conclusion: 'better', tasks: 300 }), {
    final: 'inconclusive',
    pooled: 'better',
    disagree: true,
  });
  assert.deepEqual(decideVerdict({ conclusion: 'better' }, { conclusion: 'better', tasks: 3 }), {
    final: 'better',
    pooled: 'better',
    disagree: false,
  });
  assert.deepEqual(decideVerdict(null, { conclusion: 'inconclusive', tasks: 0 }), { final: null, pooled: null, disagree: false });
});

/** An entry as section 8 would give it, from its figures. */
function entry(meanDiff: number, lo: number, hi: number, p: number | null, tasks: number, mde: number | null): PairedFigures {
  return {
    tasks,
    successA: null,
    successB: null,
    meanDiff,
    ci95: [lo, hi],
    t: null,
    p,
    wins: 0,
    losses: 0,
    ties: 0,
    signTestP: null,
    conclusion: conclusionOf([lo, hi]),
    mde80: mde,
  };
}

test("the words: section 8's own example, a gain and a loss, leading with the conclusion", () => {
  const inc = entry(0.072, -0.049, 0.194, 0.2435, 60, 0.183);
  assert.equal(
    entryWords(inc, 'at iteration 44', 'task'),
    'Inconclusive at iteration 44: A − B = +7.2 points, 95% CI −4.9 to +19.4 (p = 0.24); ' +
      'with 60 tasks only a difference of about 18 points would show.',
  );
  assert.equal(
    entryWords(entry(0.031, 0.004, 0.058, 0.024, 274, 0.039), 'at iteration 9', 'task'),
    'A better than B at iteration 9: A − B = +3.1 points, 95% CI +0.4 to +5.8 (p = 0.024), on 274 tasks.',
  );
  assert.equal(
    entryWords(entry(-0.05, -0.09, -0.01, 0.00001, 80, 0.05), 'at iteration 9', 'task'),
    'A worse than B at iteration 9: A − B = −5.0 points, 95% CI −9.0 to −1.0 (p < 0.001), on 80 tasks.',
  );
  assert.equal(
    entryWords(entry(0.01, -0.02, 0.04, 0.5, 500, 0.042), 'at iteration 9', 'task'),
    'Inconclusive at iteration 9: A − B = +1.0 points, 95% CI −2.0 to +4.0 (p = 0.5); with 500 tasks only a difference of about 4.2 points would show.',
  );
  assert.equal(signedPoints(-0.0004), '0.0', 'no signed zero');
  assert.equal(shortP(0.052), '= 0.052');
});

test('the words where final and pooled disagree say both; an inconclusive difference is never a gain', () => {
  const final = { iteration: 44, ...entry(0.072, -0.049, 0.194, 0.2435, 60, 0.183) };
  const e: EvaluationComparison = {
    iterations: [4, 14, 24, 34, 44],
    perIteration: [final],
    final,
    pooled: entry(0.061, 0.001, 0.123, 0.048, 300, 0.087),
  };
  const w = verdictWords(e);
  assert.equal(w.conclusion, 'inconclusive');
  assert.equal(w.pooledConclusion, 'better');
  assert.equal(w.disagree, true);
  assert.match(w.text, /^Inconclusive at iteration 44: A − B = \+7\.2 points/);
  assert.ok(
    w.text.endsWith(
      'The pooled figure says otherwise. A better than B pooled over the 5 common checkpoints: ' +
        'A − B = +6.1 points, 95% CI +0.1 to +12.3 (p = 0.048), on 300 checkpoint-task pairs.',
    ),
    w.text,
  );
  assert.doesNotMatch(w.final, /more|fewer|gain|loss|helps/);
  const agree = verdictWords({ ...e, pooled: entry(0.061, -0.001, 0.123, 0.052, 300, 0.087) });
  assert.equal(agree.disagree, false);
  assert.equal(agree.text, agree.final, 'agreeing, the final sentence alone');
  assert.match(verdictWords(null).text, /^No verdict: a run has no evaluation log/);
});
