import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeDemo } from '../../src/core/demo/demo';
import { conclusionOf } from '../../src/core/eval/verdict';
import { cardSetting, runSettings } from '../../src/core/runs/settings';
import { tempDir } from '../helpers';
import { rlrb, rlrbJson } from '../cliRun';

const dir = tempDir();
writeDemo(dir, { trajectories: 600, hubRepo: false, baseline: true });
const base = join(dir, 'baseline');

test('each row equals report, tags and evals --json; the verdict is compare --json final conclusion', () => {
  const t = rlrbJson('runs', dir, '--baseline', base) as { baseline: string; runs: Record<string, unknown>[] };
  assert.equal(t.baseline, base);
  assert.deepEqual(
    t.runs.map((r) => [r['run'], r['baseline']]),
    [
      [base, true],
      [dir, false],
    ],
  );
  const row = t.runs[1]!;
  const report = rlrbJson('report', dir);
  const tags = rlrbJson('tags', dir) as { tags: Record<string, { rate: number | null } | null> };
  const evals = rlrbJson('evals', dir) as { iterations: { iteration: number; success: number; tasks: number }[] };
  const cmp = rlrbJson('compare', dir, base) as { evaluation: { final: { iteration: number; ci95: [number, number] | null } } };
  assert.equal(row['trajectories'], report['trajectories']);
  assert.equal(row['iterations'], report['iterations']);
  assert.equal(row['signFlipRate'], report['signFlipRate']);
  assert.equal(row['fallbackRate'], report['fallbackRate']);
  assert.equal(row['executedIsArgmaxRate'], report['executedIsArgmaxRate']);
  const gate = report['gate'] as { meanDiff: number; p: number; groups: number };
  assert.deepEqual(row['gate'], { meanDiff: gate.meanDiff, p: gate.p, groups: gate.groups });
  for (const [name, f] of Object.entries(tags.tags)) assert.equal((row['tags'] as Record<string, unknown>)[name], f?.rate ?? null, name);
  const last = evals.iterations.at(-1)!;
  assert.deepEqual(row['lastEval'], { iteration: last.iteration, tasks: last.tasks, success: last.success });
  const v = row['verdict'] as { iteration: number; final: { ci95: unknown; conclusion: string } };
  assert.equal(v.iteration, cmp.evaluation.final.iteration);
  assert.deepEqual(v.final.ci95, cmp.evaluation.final.ci95);
  assert.equal(v.final.conclusion, conclusionOf(cmp.evaluation.final.ci95));
  assert.deepEqual(row['settings'], { beta: 0.4, tau: 20, betaFrom: 'metrics log', tauFrom: 'metrics log' });
  // the plain baseline has no labels: its label figures and tags are null, never 0
  assert.equal(t.runs[0]!['signFlipRate'], null);
  assert.equal((t.runs[0]!['tags'] as Record<string, unknown>)['collapsed'], null);
});

test('a second open gives the same table; the readable form names each run', () => {
  const first = rlrb('runs', dir, base, '--json');
  const second = rlrb('runs', dir, base, '--json');
  assert.equal(second.code, 0, second.err);
  assert.equal(second.out, first.out);
  const text = rlrb('runs', dir, '--baseline', base);
  assert.match(text.out, /better|worse|inconclusive/);
  assert.match(text.out, /falseDone/);
});

test('bad usage exits 2', () => {
  assert.equal(rlrb('runs').code, 2);
  assert.equal(rlrb('runs', dir, '--baseline').code, 2);
  assert.equal(rlrb('runs', dir, '--frob').code, 2);
});

test('the conclusion rests on the interval alone', () => {
  assert.equal(conclusionOf([0.01, 0.2]), 'better');
  assert.equal(conclusionOf([-0.2, -0.01]), 'worse');
  assert.equal(conclusionOf([-0.1, 0.2]), 'inconclusive');
  assert.equal(conclusionOf([0, 0.2]), 'inconclusive');
  assert.equal(conclusionOf(null), 'inconclusive');
});

test('settings come from the metrics log, else the card', () => {
  const card = '| knob | value | why |\n|---|---|---|\n| β | 0.4 | the largest dose |\n| τ | 20.0 | the median |\n';
  assert.equal(cardSetting(card, 'beta'), 0.4);
  assert.equal(cardSetting(card, 'tau'), 20);
  assert.equal(cardSetting('ws-credit, beta = 0.25 here', 'beta'), 0.25);
  assert.equal(cardSetting('no knobs', 'tau'), null);
  assert.deepEqual(runSettings(undefined, card), { beta: 0.4, tau: 20, betaFrom: 'card', tauFrom: 'card' });
  assert.deepEqual(runSettings(undefined, undefined), { beta: null, tau: null, betaFrom: null, tauFrom: null });
});
