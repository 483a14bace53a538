import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { close, jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { rlrb, rlrbJson } from '../cliRun';
import { Run } from '../../src/core/run/run';
import { compareEvaluations, pairedFigures } from '../../src/core/eval/evalFigures';
import type { EvalSummary, EvaluationComparison, PairedFigures } from '../../src/core/eval/evalFigures';

const FIX = resolve(__dirname, '../../../test/fixtures/evals');

/** Run A (`logs/eval_log.jsonl`) and run B (`eval/checkpoints.jsonl`), each with a credit log so that they compare. */
function runs(): { a: string; b: string } {
  const root = tempDir();
  const a = join(root, 'a');
  const b = join(root, 'b');
  cpSync(join(FIX, 'a'), a, { recursive: true });
  cpSync(join(FIX, 'b'), b, { recursive: true });
  writeFileSync(join(a, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  writeFileSync(join(b, 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  return { a, b };
}

/*
 * Run A by hand (16 lines, 4 skipped: line 7 not JSON, line 8 iteration 3.5, line 9 no reward, line 10 no task key).
 * iteration 10: t1 rewards 1, 0 (success 0.5); t2 true, true by aliases step/task/success (1); t3 0, -1 (0)
 *   tasks 3, samples 6, success (0.5 + 1 + 0) / 3 = 0.5, reward (1 + 0 + 1 + 1 + 0 - 1) / 6 = 1/3
 * iteration 20 (alias checkpoint, score): t1 1, 1 (1); t2 1, 0 (0.5): tasks 2, samples 4, success 0.75, reward 0.75
 * iteration 40: t1 1; "find the fifth thing" (instruction as the key) 0: tasks 2, samples 2, success 0.5, reward 0.5
 */
test('rlrb evals --json: success and reward per checkpoint, aliases read, bad lines skipped one message naming file and lines', () => {
  const { a } = runs();
  const r = rlrb('evals', a, '--json');
  assert.equal(r.code, 0, r.err);
  const o = JSON.parse(r.out) as EvalSummary;
  assert.deepEqual(Object.keys(o), ['iterations']);
  assert.deepEqual(
    o.iterations.map((i) => [i.iteration, i.tasks, i.samples]),
    [
      [10, 3, 6],
      [20, 2, 4],
      [40, 2, 2],
    ],
  );
  assert.deepEqual(Object.keys(o.iterations[0]!).sort(), ['iteration', 'reward', 'samples', 'success', 'tasks']);
  assert.ok(close(o.iterations[0]!.success, 0.5) && close(o.iterations[0]!.reward, 1 / 3));
  assert.ok(close(o.iterations[1]!.success, 0.75) && close(o.iterations[1]!.reward, 0.75));
  assert.ok(close(o.iterations[2]!.success, 0.5) && close(o.iterations[2]!.reward, 0.5));
  const warn = r.err.split('\n').filter((l) => l.includes('skipped'));
  assert.equal(warn.length, 1, r.err);
  assert.match(
    warn[0]!,
    /eval_log\.jsonl: skipped 4 line\(s\).*line 7 \(not JSON.*line 8 \(no whole-number iteration.*line 9 \(no finite reward.*line 10 \(no task key/,
  );
});

test('the eval log found as eval/*.jsonl, and given as a file; a run without one is a usage error', () => {
  const { a, b } = runs();
  const ob = rlrbJson('evals', b) as unknown as EvalSummary;
  // B: 10: t1 0 0, t2 1 0, t3 0 false, t4 1 -> success (0 + 0.5 + 0 + 1) / 4 = 0.375; 20: t1 0.5, t2 0 -> 0.25; 30; 40
  assert.deepEqual(
    ob.iterations.map((i) => [i.iteration, i.tasks, i.samples, i.success]),
    [
      [10, 4, 7, 0.375],
      [20, 2, 4, 0.25],
      [30, 1, 1, 1],
      [40, 1, 1, 0],
    ],
  );
  const direct = rlrbJson('evals', join(a, 'logs', 'eval_log.jsonl')) as unknown as EvalSummary;
  assert.equal(direct.iterations.length, 3);
  const none = tempDir();
  writeFileSync(join(none, 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  const r = rlrb('evals', none, '--json');
  assert.equal(r.code, 2);
  assert.match(r.err, /no evaluation log/);
});

test("an eval episode's index holds its offsets, and reading it back gives its actions", async () => {
  const { a } = runs();
  const run = (await Run.open(a))!;
  await run.update();
  const e = run.evals!;
  assert.equal(e.episodes.length, 12);
  assert.deepEqual(
    e.episodes.slice(0, 6).map((x) => [x.iteration, x.task, x.sample, x.line]),
    [
      [10, 't1', 0, 1],
      [10, 't1', 1, 2],
      [10, 't2', 0, 3],
      [10, 't2', 1, 4],
      [10, 't3', 0, 5], // no sample logged: its place among t3's episodes at 10
      [10, 't3', 1, 6],
    ],
  );
  const v = await e.read(0);
  assert.deepEqual(
    v.turns.map((t) => t.action),
    ['click(point_2d=[5, 5])', 'done(response="ok")'],
  );
  assert.equal(e.episodes[0]!.turns, 2);
});

const Z = 1.959963984540054;

function near(actual: number | null, expected: number, eps = 1e-6, what = ''): void {
  assert.ok(close(actual, expected, eps), `${what}: ${actual} != ${expected}`);
}

/*
 * The comparison by hand, over the common iterations 10, 20, 40 (30 is B's only), pairs (fA, fB):
 * 10: t1 (0.5, 0), t2 (1, 0.5), t3 (0, 0); t4 is B's only. diffs 0.5, 0.5, 0: mean 1/3, sd sqrt(1/12),
 *     se 1/6, t = 2, p = 0.0455003, ci95 1/3 -+ Z/6, wins 2 ties 1, sign test p(2/sqrt 2) = 0.1572992
 * 20: t1 (1, 0.5), t2 (0.5, 0): diffs 0.5, 0.5: sd 0 -> ci95 [0.5, 0.5], t and p null; sign test 0.1572992
 * 40: t1 (1, 0); A's "find the fifth thing" unpaired: n = 1 -> ci95, t, p null; sign test p(1) = 0.3173105
 * pooled: diffs 0.5, 0.5, 0, 0.5, 0.5, 1: mean 0.5, sd sqrt(0.1), se sqrt(1/60), t = 3.8729833, p = 0.0001075,
 *     successA 4/6, successB 1/6, wins 5 ties 1, sign test p(sqrt 5) = 0.0253473
 */
test('rlrb compare --json evaluation: per checkpoint, final and pooled, as worked by hand (sd 0 and n < 2 give nulls)', () => {
  const { a, b } = runs();
  const o = rlrbJson('compare', a, b);
  const ev = o['evaluation'] as EvaluationComparison;
  assert.deepEqual(Object.keys(ev).sort(), ['final', 'iterations', 'perIteration', 'pooled']);
  assert.deepEqual(ev.iterations, [10, 20, 40]);
  const [i10, i20, i40] = ev.perIteration as unknown as [PairedFigures, PairedFigures, PairedFigures];
  assert.deepEqual(Object.keys(i10).sort(), [
    'ci95',
    'conclusion',
    'iteration',
    'losses',
    'mde80',
    'meanDiff',
    'p',
    'signTestP',
    'successA',
    'successB',
    't',
    'tasks',
    'ties',
    'wins',
  ]);
  assert.equal(i10.tasks, 3);
  near(i10.successA, 0.5, 1e-12, 'successA');
  near(i10.successB, 1 / 6, 1e-12, 'successB');
  near(i10.meanDiff, 1 / 3, 1e-12, 'meanDiff');
  near(i10.ci95![0], 1 / 3 - Z / 6, 1e-12, 'ci low');
  near(i10.ci95![1], 1 / 3 + Z / 6, 1e-12, 'ci high');
  near(i10.t, 2, 1e-12, 't');
  near(i10.p, 0.0455003, 1e-6, 'p');
  assert.deepEqual([i10.wins, i10.losses, i10.ties], [2, 0, 1]);
  near(i10.signTestP, 0.1572992, 1e-6, 'sign test');
  // the interval's low end 1/3 - 1.96/6 = 0.0067 is above 0; mde80 (1.96 + 0.8416) * sd / sqrt(n) = 2.8016 / 6
  assert.equal(i10.conclusion, 'better');
  near(i10.mde80, (Z + 0.8416212335729143) / 6, 1e-12, 'mde80');
  assert.deepEqual(i20.ci95, [0.5, 0.5]);
  assert.deepEqual([i20.conclusion, i20.mde80], ['better', 0], 'sd 0: the interval is the point +0.5');
  assert.equal(i20.t, null);
  assert.equal(i20.p, null);
  assert.equal(i40.tasks, 1);
  assert.equal(i40.ci95, null);
  assert.equal(i40.t, null);
  assert.deepEqual([i40.conclusion, i40.mde80], ['inconclusive', null], 'one task: no interval, so nothing shown');
  near(i40.signTestP, 0.3173105, 1e-6, 'sign test at 40');
  assert.deepEqual(ev.final, i40);
  const pooled = ev.pooled;
  assert.equal(pooled.tasks, 6);
  near(pooled.successA, 4 / 6, 1e-12, 'pooled A');
  near(pooled.successB, 1 / 6, 1e-12, 'pooled B');
  near(pooled.meanDiff, 0.5, 1e-12, 'pooled mean');
  near(pooled.t, 3.8729833, 1e-6, 'pooled t');
  near(pooled.p, 0.0001075, 1e-6, 'pooled p');
  near(pooled.ci95![0], 0.5 - Z * Math.sqrt(1 / 60), 1e-12, 'pooled ci');
  assert.deepEqual([pooled.wins, pooled.losses, pooled.ties], [5, 0, 1]);
  near(pooled.signTestP, 0.0253473, 1e-6, 'pooled sign test');
  assert.equal(pooled.conclusion, 'better');
  near(pooled.mde80, (Z + 0.8416212335729143) * Math.sqrt(1 / 60), 1e-12, 'pooled mde80');
  // the text leads with the verdict; final (inconclusive) and pooled (better) disagree, so both are said
  const text = rlrb('compare', a, b).out.split('\n');
  assert.equal(text[3], 'Verdict (checkpoint evaluations):');
  assert.match(text[4]!, /^ {2}Inconclusive at iteration 40: A − B = [+−]\d+\.\d points on only 1 task, too few for an interval/);
  assert.match(
    text[5]!,
    /^ {2}The pooled figure says otherwise\. A better than B pooled over the 3 common checkpoints: A − B = \+50\.0 points/,
  );
  const cut = rlrbJson('compare', a, b, '--from', '15')['evaluation'] as EvaluationComparison;
  assert.deepEqual(cut.iterations, [20, 40]);
});

test('evaluation is null when either run has no evaluation log; no common checkpoint leaves final null', () => {
  assert.equal(compareEvaluations(undefined, [{ iteration: 1, task: 't', reward: 1 }]), null);
  assert.equal(compareEvaluations([{ iteration: 1, task: 't', reward: 1 }], undefined), null);
  const none = compareEvaluations([{ iteration: 1, task: 't', reward: 1 }], [{ iteration: 2, task: 't', reward: 1 }])!;
  assert.deepEqual(none.iterations, []);
  assert.equal(none.final, null);
  assert.equal(none.pooled.meanDiff, null);
  assert.equal(none.pooled.signTestP, null);
  assert.deepEqual(pairedFigures([]).tasks, 0);
});

/*
 * The eval episodes' behaviour by hand, at the common checkpoints 10, 20, 40: A has 12 episodes (6, 4, 2), one with turns
 * (click, done, reward 1: no tag), eleven empty, one reward -1 (formatFailure); B has 12 (7, 4, 1), all empty, none below 0.
 * formatFailure 1/12 against 0/12: q = 1/24, z = (1/12) / sqrt(q (1 - q) (1/12 + 1/12)) = 1.0215, p = 0.3070; empty the same p.
 */
test('rlrb compare (text) and --json: the behaviour of the eval episodes at the common checkpoints, as worked by hand', () => {
  const { a, b } = runs();
  const ev = rlrbJson('compare', a, b)['evalBehaviour'] as Record<string, { rateA: number | null; rateB: number | null; p: number | null }>;
  near(ev['formatFailure']!.rateA, 1 / 12, 1e-12, 'formatFailure A');
  assert.equal(ev['formatFailure']!.rateB, 0);
  near(ev['formatFailure']!.p, 0.3070135, 1e-6, 'formatFailure p');
  near(ev['empty']!.rateA, 11 / 12, 1e-12, 'empty A');
  assert.equal(ev['empty']!.rateB, 1);
  assert.deepEqual(ev['collapsed'], { rateA: null, rateB: null, diff: null, p: null });
  const t = rlrb('compare', a, b);
  assert.equal(t.code, 0, t.err);
  const lines = t.out.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Behaviour on the eval episodes of the checkpoints both runs evaluated'));
  assert.ok(at > 0, t.out);
  const evalPart = lines.slice(at);
  assert.ok(
    evalPart.some((l) => /^ {2}format failure +8\.3% +0\.0% +\+8\.3 pts +0\.3070$/.test(l)),
    evalPart.join('\n'),
  );
  assert.ok(evalPart.includes('  format failure: A fails the format on 8.3% of eval episodes, B on 0.0%, p = 0.3070.'));
  assert.ok(evalPart.includes('  empty: A has empty trajectories on 91.7% of eval episodes, B on 100.0%, p = 0.3070.'));
  assert.ok(evalPart.includes('  collapsed: Empty: it needs labeled turns (or trajectories in the window), and a run has none.'));
});
