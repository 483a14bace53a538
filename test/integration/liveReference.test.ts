/**
 * `rlrb watch --once --json` on a run not watched before against an independent reading of
 * docs/format.md section 10: the events worked out here straight from the log lines (sections 2,
 * 4 and 8), with none of the product's index, report or event code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeDemo } from '../../src/core/demo/demo';
import { tempDir } from '../helpers';
import { rlrb } from '../cliRun';

type Obj = Record<string, unknown>;
const lines = (p: string): Obj[] =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    // Python's json writes NaN and Infinity (section 2); none is inside a string in the demo
    .map((l) => JSON.parse(l.replace(/-?\bInfinity\b|\bNaN\b/g, 'null')) as Obj);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

interface Tally {
  n: number;
  rewardSum: number;
  rewardN: number;
  flipBase: number;
  flips: number;
  labeledNotMasked: number;
  fallback: number;
  credited: number;
  argmax: number;
  cSum: number;
  cN: number;
}

function reference(creditLog: string, metricsLog: string, evalLog: string): Obj[] {
  const by = new Map<number, Tally>();
  for (const t of lines(creditLog)) {
    const it = t['iteration'] as number;
    const a = by.get(it) ?? {
      n: 0,
      rewardSum: 0,
      rewardN: 0,
      flipBase: 0,
      flips: 0,
      labeledNotMasked: 0,
      fallback: 0,
      credited: 0,
      argmax: 0,
      cSum: 0,
      cN: 0,
    };
    by.set(it, a);
    a.n++;
    const r = num(t['reward']);
    if (r !== undefined) {
      a.rewardSum += r;
      a.rewardN++;
    }
    const A = num(t['A']) ?? 0;
    for (const turn of (t['turns'] as Obj[]) ?? []) {
      const scores = turn['scores'];
      if (!Array.isArray(scores) || scores.length < 2) continue;
      const masked = turn['masked'] === true;
      const fallback = turn['fallback'] === true;
      if (!masked) {
        a.labeledNotMasked++;
        if (fallback) a.fallback++;
      }
      if (masked || fallback) continue;
      a.credited++;
      const s0 = scores[0] as number | null;
      if (s0 !== null && scores.slice(1).every((s) => s === null || s0 >= (s as number))) a.argmax++;
      const c = num(turn['c']);
      if (c !== undefined) {
        a.cSum += c;
        a.cN++;
      }
      if (A !== 0) {
        a.flipBase++;
        const at = num(turn['A_t']) ?? 0;
        if (at === 0 || Math.sign(at) !== Math.sign(A)) a.flips++;
      }
    }
  }
  const metrics = new Map(lines(metricsLog).map((m) => [m['iteration'] as number, m]));
  const its = [...by.keys()].sort((x, y) => x - y);
  const events: Obj[] = [];
  const evalBy = new Map<number, Map<string, { n: number; ok: number }>>();
  for (const e of lines(evalLog)) {
    const it = e['iteration'] as number;
    const tasks = evalBy.get(it) ?? new Map<string, { n: number; ok: number }>();
    evalBy.set(it, tasks);
    const task = String(e['task_id']);
    const k = tasks.get(task) ?? { n: 0, ok: 0 };
    k.n++;
    if (Number(e['reward']) > 0) k.ok++;
    tasks.set(task, k);
  }
  its.forEach((it, j) => {
    const a = by.get(it)!;
    const m = metrics.get(it);
    if (j === its.length - 1 && !m) return;
    events.push({ type: 'iteration', iteration: it, trajectories: a.n, reward: a.rewardN ? a.rewardSum / a.rewardN : null });
    const rate = (x: number, n: number): number | null => (n > 0 ? x / n : null);
    const flip = rate(a.flips, a.flipBase);
    const fb = rate(a.fallback, a.labeledNotMasked);
    const am = rate(a.argmax, a.credited);
    if (flip !== null && flip > 0) events.push({ type: 'alert', iteration: it, check: 'signFlip', value: flip, limit: 0 });
    if (fb !== null && fb >= 0.05) events.push({ type: 'alert', iteration: it, check: 'fallback', value: fb, limit: 0.05 });
    const half = 3 * Math.sqrt(0.16 / a.credited);
    if (am !== null && Math.abs(am - 0.2) > half) events.push({ type: 'alert', iteration: it, check: 'argmax', value: am, limit: half });
    const win = its.slice(Math.max(0, j - 4), j + 1).map((i) => by.get(i)!);
    const cN = win.reduce((s, w) => s + w.cN, 0);
    const meanC = cN > 0 ? win.reduce((s, w) => s + w.cSum, 0) / cN : null;
    if (meanC !== null && Math.abs(meanC) >= 0.03) events.push({ type: 'alert', iteration: it, check: 'meanC', value: meanC, limit: 0.03 });
    for (const [field, twin] of [
      ['ws/sign_flip_rate', flip],
      ['ws/fallback_rate', fb],
      ['ws/executed_is_argmax', am],
      ['ws/c_mean', rate(a.cSum, a.cN)],
    ] as const) {
      const logged = num(m?.[field]);
      if (logged !== undefined && twin !== null && Math.abs(logged - twin) > 1e-6)
        events.push({ type: 'alert', iteration: it, check: 'loggedDisagrees', value: logged, limit: twin, field });
    }
    const tasks = evalBy.get(it);
    if (tasks) {
      const f = [...tasks.values()].map((k) => k.ok / k.n);
      events.push({ type: 'evaluation', iteration: it, tasks: f.length, success: f.reduce((s, x) => s + x, 0) / f.length });
    }
  });
  return events;
}

test('rlrb watch --once --json on a run not watched before equals an independent reading of section 10', () => {
  const dir = tempDir('rlrb-live-ref-');
  const d = writeDemo(dir, { hubRepo: false, baseline: false });
  const got = rlrb('watch', dir, '--once', '--json');
  assert.equal(got.code, 1, got.err);
  const events = got.out
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Obj);
  const want = reference(d.creditLog, d.metricsLog, d.evalLog);
  const round = (es: Obj[]): Obj[] =>
    es.map((e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toPrecision(12)) : v])));
  assert.deepEqual(round(events), round(want));
  // the demo's trained-in findings are there: sign flips the metrics log says are 0
  assert.ok(want.some((e) => e['check'] === 'signFlip') && want.some((e) => e['check'] === 'loggedDisagrees'));
});
