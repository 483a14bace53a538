/** `rlrb compare`, the CLI run as a user runs it, on the hand-worked runs of test/unit/compare.test.ts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { COMPARE_A_LINES, COMPARE_B_LINES } from '../fixtures';
import { rlrb, rlrbJson } from '../cliRun';
import { TAG_NAMES } from '../../src/core/behaviour/tags';

function runDir(lines: readonly string[]): string {
  const d = tempDir();
  mkdirSync(join(d, 'logs'));
  writeFileSync(join(d, 'logs', 'ws_credit_log.jsonl'), lines.join('\n') + '\n');
  return d;
}

const dirA = runDir(COMPARE_A_LINES);
const dirB = runDir(COMPARE_B_LINES);

test('compare --json prints exactly the keys of section 6 plus evaluation, behaviour, evalBehaviour, creditDiagnostics, warnings, reportA and reportB', () => {
  const o = rlrbJson('compare', dirA, dirB);
  assert.deepEqual(
    Object.keys(o).sort(),
    [
      'iterations',
      'trajectoriesA',
      'trajectoriesB',
      'successA',
      'successB',
      'rewardA',
      'rewardB',
      'iterationsAhead',
      'iterationsBehind',
      'iterationSignTestP',
      'tasks',
      'perIteration',
      'evaluation',
      'creditDiagnostics',
      'warnings',
      'reportA',
      'reportB',
      'behaviour',
      'evalBehaviour',
    ].sort(),
  );
  const behaviour = o['behaviour'] as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(behaviour), [...TAG_NAMES]);
  assert.deepEqual(Object.keys(behaviour['repeat']!), ['rateA', 'rateB', 'diff', 'p']);
  // run B is a plain run: its label tags are null, and so are diff and p; A's rate stays (section 7)
  assert.deepEqual(behaviour['collapsed'], { rateA: 0, rateB: null, diff: null, p: null });
  assert.deepEqual(behaviour['creditDisagrees'], { rateA: 0, rateB: null, diff: null, p: null });
  assert.deepEqual(Object.keys(o['tasks'] as object).sort(), ['count', 'losses', 'meanDiff', 'p', 'signTestP', 't', 'ties', 'wins'].sort());
  const per = o['perIteration'] as Record<string, unknown>[];
  assert.deepEqual(Object.keys(per[0]!).sort(), ['iteration', 'rewardA', 'rewardB', 'successA', 'successB']);
  // each report is what `rlrb report --json` prints for that run
  const ra = JSON.parse(rlrb('report', dirA, '--json').out) as unknown;
  assert.deepEqual(o['reportA'], ra);
  assert.equal((o['reportB'] as { signFlipRate: unknown }).signFlipRate, null);
  assert.equal(o['evaluation'], null, 'neither run has an evaluation log');
  assert.equal(o['iterations'], 4);
  const cut = JSON.parse(rlrb('compare', dirA, dirB, '--json', '--from', '6').out) as Record<string, unknown>;
  assert.equal(cut['successA'], null);
  assert.equal((cut['tasks'] as Record<string, unknown>)['meanDiff'], null);
  const cut2 = JSON.parse(rlrb('compare', dirA, dirB, '--json', '--from=1', '--to', '2').out) as Record<string, unknown>;
  assert.equal(cut2['iterations'], 2);
});

/*
 * The behaviour section of the text, by hand over the window's iterations 0, 1, 2, 5 (horizon 15):
 * A counts 10 trajectories: two of one turn without done (noDone), eight of none (empty), one reward -1 (formatFailure);
 * B counts 9: three of one turn without done, six empty, none below 0; B is plain, so collapsed and creditDisagrees are null.
 * noDone: 2/10 against 3/9, q = 5/19, z = -0.1333 / sqrt(q (1 - q) (1/10 + 1/9)) = -0.6590, p = 0.5099;
 * empty: 8/10 against 6/9, the same z with the other sign; formatFailure 1/10 against 0/9, q = 1/19, z = 0.9747, p = 0.3297;
 * repeat 0 against 0: q = 0, no p.
 */
test("compare (text): the behaviour section, each tag's rates, A - B and p in a table and in the panel's words", () => {
  const t = rlrb('compare', dirA, dirB);
  assert.equal(t.code, 0, t.err);
  const lines = t.out.split('\n');
  const at = lines.indexOf('Behaviour (section 7) on the training rollouts of the window (two-proportion z test):');
  assert.ok(at > 0, t.out);
  assert.match(lines[at + 1]!, /^ {2}tag +run A +run B +A - B +p$/);
  const row = (label: string): string[] =>
    lines
      .find((l) => l.startsWith(`  ${label}  `))!
      .trim()
      .split(/ {2,}/);
  assert.deepEqual(row('no done'), ['no done', '20.0%', '33.3%', '-13.3 pts', '0.5099']);
  assert.deepEqual(row('empty'), ['empty', '80.0%', '66.7%', '+13.3 pts', '0.5099']);
  assert.deepEqual(row('format failure'), ['format failure', '10.0%', '0.0%', '+10.0 pts', '0.3297']);
  assert.deepEqual(row('repeat'), ['repeat', '0.0%', '0.0%', '0.0 pts', '—']);
  assert.deepEqual(row('collapsed'), ['collapsed', '0.0%', '—', '—', '—']);
  assert.ok(lines.includes('  no done: A stops without done on 20.0% of trajectories, B on 33.3%, p = 0.5099.'), t.out);
  assert.ok(lines.includes('  repeat: A loops on 0.0% of trajectories, B on 0.0%, no p value (neither run has it, or both always do).'));
  assert.ok(lines.includes('  collapsed: A collapses on 0.0% of trajectories; B has no labeled turns, so no rate and no test.'), t.out);
  assert.ok(lines.includes('Behaviour on eval episodes: none (a run has no evaluation log).'));
});

test('compare: a readable table; exit 2 with one line on stderr on bad usage or a missing run', () => {
  const t = rlrb('compare', dirA, dirB);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /Window: 4 common iteration\(s\) \(0\.\.5\)/);
  assert.match(t.out, /A ahead in 1, behind in 2; sign test p = 0\.5637/);
  assert.match(t.out, /4 seen by both; mean diff \+0\.2500/);
  assert.match(t.out, /Run reports/);
  assert.match(t.out, /Training curve/);
  assert.match(t.out, /Warnings:/);
  const empty = tempDir();
  for (const args of [
    [dirA],
    [dirA, dirB, dirA],
    [dirA, join(empty, 'nothing')],
    [dirA, empty],
    [dirA, dirB, '--from', 'x'],
    [dirA, dirB, '--from', '1.5'],
    [dirA, dirB, '--from', '3', '--to', '2'],
    [dirA, dirB, '--to'],
    [dirA, dirB, '--bogus=1'],
  ]) {
    const r = rlrb('compare', ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.equal(r.out, '');
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.match(r.err, /^rlrb: /);
  }
  // a run with only a metrics log has nothing to compare
  writeFileSync(join(empty, 'ws_metrics.jsonl'), '{"iteration":0,"x":1}\n');
  const m = rlrb('compare', dirA, empty);
  assert.equal(m.code, 2);
  assert.match(m.err, /no credit log/);
});
