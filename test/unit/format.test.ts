import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatBytes,
  formatCount,
  formatCredit,
  formatDk,
  formatDuration,
  formatFigure,
  formatMetric,
  formatP,
  formatPercent,
  formatPlain,
  formatQuantity,
  formatRate,
  formatReward,
  formatScore,
  formatSigned,
  metricQuantity,
  plural,
  wrapPieces,
} from '../../src/shared/format';
import { candidateNotes } from '../../src/shared/candidateNotes';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

test('formatFigure: a dash for no data, integers as they are, a sign and fixed digits, tiny values in scientific notation', () => {
  assert.equal(formatFigure(null), '—');
  assert.equal(formatFigure(undefined), '—');
  assert.equal(formatFigure(NaN), '—');
  assert.equal(formatFigure(3), '3');
  assert.equal(formatFigure(-2), '-2');
  assert.equal(formatFigure(0.5), '+0.5000');
  assert.equal(formatFigure(-0.12345, 3), '-0.123');
  assert.equal(formatFigure(0.00001234), '1.23e-5');
  assert.equal(formatFigure(1.5, 0), '+2');
});

test('formatPlain drops only the plus sign', () => {
  assert.equal(formatPlain(1.5, 0), '2');
  assert.equal(formatPlain(-0.25, 2), '-0.25');
  assert.equal(formatPlain(null), '—');
  assert.equal(formatPlain(1), '1');
});

test('formatBytes and formatDuration', () => {
  assert.equal(formatBytes(999), '999 B');
  assert.equal(formatBytes(1_500_000), '1.50 MB');
  assert.equal(formatDuration(75), '1m15s');
  assert.equal(formatDuration(3700), '1h01m');
});

test('formatRate: plain decimals, no sign, a tiny rate never reads as 0', () => {
  assert.equal(formatRate(0.05), '0.0500');
  assert.equal(formatRate(0.2023), '0.2023');
  assert.equal(formatRate(0), '0.0000');
  assert.equal(formatRate(0.00003), '0.00003');
  assert.equal(formatRate(null), '—');
  assert.ok(!formatRate(0.5).startsWith('+'));
});

test('formatPercent, formatCount: percentages and whole numbers with separators', () => {
  assert.equal(formatPercent(0.014), '1.4%');
  assert.equal(formatPercent(0), '0.0%');
  assert.equal(formatCount(10800), '10,800');
  assert.equal(formatCount(42.4), '42');
  assert.equal(formatCount(-1234567), '-1,234,567');
  assert.equal(formatCount(undefined), '—');
});

test('formatP: scientific notation only when small', () => {
  assert.equal(formatP(0.0059), '0.0059');
  assert.equal(formatP(0.5), '0.5000');
  assert.equal(formatP(0.00023), '2.3e-4');
  assert.equal(formatP(0), '0.0000');
});

test('metricQuantity and formatMetric: each metric of docs/format.md section 5 as its quantity', () => {
  assert.equal(metricQuantity('ws/sign_flip_rate'), 'rate');
  assert.equal(metricQuantity('ws/fallback_rate'), 'rate');
  assert.equal(metricQuantity('ws/executed_is_argmax'), 'rate');
  assert.equal(metricQuantity('ws/truncation_rate'), 'rate');
  assert.equal(metricQuantity('ws/all_fail_groups'), 'count');
  assert.equal(metricQuantity('ws/response_len_mean'), 'tokens');
  assert.equal(metricQuantity('ws/c_mean'), 'signed');
  assert.equal(metricQuantity('ws/gate_mean_diff'), 'signed');
  assert.equal(metricQuantity('ws/gate_p'), 'p');
  assert.equal(metricQuantity('ws/tau_running'), 'plain');
  assert.equal(formatMetric('ws/response_len_mean', 325.4567), '325');
  assert.equal(formatMetric('ws/all_fail_groups', 30.3), '30');
  assert.equal(formatMetric('ws/fallback_rate', 0.0001), '0.0001');
  assert.equal(formatMetric('ws/c_mean', 0.034), '+0.0340');
  assert.equal(formatQuantity('tokens', 368.1234), '368');
});

test('formatSigned: c, A and A_t with a sign and fixed decimals, never scientific notation', () => {
  assert.equal(formatSigned(0.00544, 3), '+0.005');
  assert.equal(formatSigned(0.00544, 2), '+0.005', 'a tiny value keeps one significant digit, never 5.44e-3');
  assert.equal(formatSigned(-0.239, 4), '-0.2390');
  assert.equal(formatSigned(1, 3), '+1.000', 'c clipped at 1 has its decimals like every other c');
  assert.equal(formatSigned(-1, 3), '-1.000');
  assert.equal(formatSigned(0, 3), '0.000');
  assert.equal(formatSigned(-0.00001234), '-0.00001');
  assert.equal(formatSigned(null), '—');
  assert.equal(formatSigned(NaN), '—');
  assert.equal(formatSigned(Infinity), '+∞');
  for (const v of [0.00544, -3e-9, 12.5, -0.0004999]) assert.doesNotMatch(formatSigned(v, 2), /e/);
});

test("formatReward: the judge's 1, 0, -1 as whole numbers, other rewards with two decimals and no plus sign", () => {
  assert.equal(formatReward(1), '1');
  assert.equal(formatReward(0), '0');
  assert.equal(formatReward(-1), '-1');
  assert.equal(formatReward(0.5), '0.50', 'not 5.00e-1');
  assert.equal(formatReward(null), '—');
});

test('wrapPieces: code-like actions wrap after spaces, commas, brackets and =, never inside a token', () => {
  assert.deepEqual(wrapPieces('click(point_2d=[120, 340])'), ['click(', 'point_2d=', '[', '120, ', '340])']);
  assert.deepEqual(wrapPieces('type(text="a/very/long-path.txt")'), ['type(', 'text=', '"a/very/long-path.txt")']);
  assert.deepEqual(wrapPieces('done()'), ['done()']);
  assert.deepEqual(wrapPieces(''), []);
  for (const s of ['click(point_2d=[120, 340])', 'a,,b', '  x  ', 'f(g(h(1)),k)', 'x=\n=y'])
    assert.equal(wrapPieces(s).join(''), s, `the pieces of ${JSON.stringify(s)} are the string`);
});

test('formatQuantity: a signed figure (c, a gate difference) keeps its sign and fixed decimals', () => {
  assert.equal(formatQuantity('signed', 0.00544, 3), '+0.005');
  assert.equal(formatQuantity('signed', -0.0123), '-0.0123');
});

test('plural: singular for exactly one, thousands grouped, an irregular plural when given', () => {
  assert.equal(plural(1, 'task'), '1 task');
  assert.equal(plural(0, 'task'), '0 tasks');
  assert.equal(plural(2, 'turn'), '2 turns');
  assert.equal(plural(1200, 'turn'), '1,200 turns');
  assert.equal(plural(1, 'trajectory', 'trajectories'), '1 trajectory');
  assert.equal(plural(3, 'trajectory', 'trajectories'), '3 trajectories');
});

test('formatCredit: a clipped c reads +1.0000 (not "1"), a fallback 0 is 0.0000, no data a dash', () => {
  assert.equal(formatCredit(1), '+1.0000');
  assert.equal(formatCredit(-1), '-1.0000');
  assert.equal(formatCredit(0), '0.0000');
  assert.equal(formatCredit(0.123456), '+0.1235');
  assert.equal(formatCredit(null), '—');
  assert.equal(formatDk(-0.5), '-0.500', 'd_k: three decimals in every view');
  assert.equal(formatDk(0), '0.000');
  assert.equal(formatScore(0.25), '0.250');
  assert.equal(formatScore(null), 'null');
});

test('candidateNotes: a d_k of 0 says why (same action), a missing one why (done, no score)', () => {
  const c = { k: 1, text: 'a', score: 0.5, same: false, done: false, d: 0.1, dropped: null, isArgmax: false } as const;
  assert.deepEqual(candidateNotes({ ...c }), []);
  assert.deepEqual(candidateNotes({ ...c, same: true, d: 0 }), [{ cls: 'same', label: 'same action' }]);
  assert.deepEqual(candidateNotes({ ...c, done: true, d: null, dropped: 'done' }), [{ cls: 'done', label: 'done (dropped)' }]);
  assert.deepEqual(candidateNotes({ ...c, d: null, score: null, dropped: 'no-score' }), [{ cls: 'warn', label: 'no score' }]);
  assert.deepEqual(candidateNotes({ ...c, k: 0, done: true, isArgmax: true }), [
    { cls: 'exec', label: 'executed' },
    { cls: 'done', label: 'done' },
    { cls: 'exec', label: 'argmax' },
  ]);
});

test('the views write numbers and counts through src/shared/format.ts: no toFixed and no "(s)" plural of their own', () => {
  const root = join(__dirname, '../../..');
  const files = ['webview', 'src/extension'].flatMap((d) =>
    readdirSync(join(root, d), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(d, f)),
  );
  assert.ok(files.length > 50);
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8');
    assert.doesNotMatch(text, /\.toFixed\(/, `${f}: a number formatted by hand`);
    assert.doesNotMatch(text, /[a-z]\(s\)(?=,? [a-z])/, `${f}: a plural by hand`);
  }
});
