/** Broken and hostile credit logs: each bad line is skipped alone, by number, and the index and `read` agree. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { MetricsIndex } from '../../src/core/log/metricsIndex';
import { computeReport } from '../../src/core/report/report';
import { METRIC_TARGETS } from '../../src/core/report/targets';
import { Run } from '../../src/core/run/run';

function logFile(text: string | Buffer, name = 'ws_credit_log.jsonl'): string {
  const p = join(tempDir(), name);
  writeFileSync(p, text);
  return p;
}

/** A record as raw JSON text, with `extra` spliced in as written (so that odd text survives). */
const rec = (it: number | string, extra = '', turns = '[{"action": "wait()", "A_t": 0.5}]'): string =>
  `{"iteration": ${it}, "group": 0, "rollout": 0, "reward": 1, "A": 0.5${extra}, "turns": ${turns}}`;

async function index(text: string, opts?: ConstructorParameters<typeof CreditIndex>[2]): Promise<CreditIndex> {
  const idx = new CreditIndex(logFile(text), undefined, opts);
  await idx.update();
  return idx;
}

async function everyRowReadsBack(idx: CreditIndex): Promise<void> {
  for (let i = 0; i < idx.size; i++) {
    const t = await idx.read(i);
    assert.equal(t.iteration, idx.row(i).iteration, `row ${i}`);
  }
}

test('a line nested 5,000 deep is skipped alone with its line number, in a full read and in follow', async () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const text = [rec(0), rec(1, '', deep), rec(2, `, "meta": ${deep}`), rec(3)].join('\n') + '\n';
  const idx = await index(text);
  assert.deepEqual(
    [0, 1].map((i) => idx.row(i).iteration),
    [0, 3],
  );
  assert.deepEqual(
    idx.skippedLines.map((s) => s.line),
    [2, 3],
  );
  assert.match(idx.skippedLines[0]!.message, /nested/);
  await everyRowReadsBack(idx);
  appendFileSync(idx.path, rec(4, '', deep) + '\n');
  await idx.update();
  appendFileSync(idx.path, rec(5) + '\n');
  await idx.update();
  assert.deepEqual(
    Array.from({ length: idx.size }, (_, i) => idx.row(i).iteration),
    [0, 3, 5],
  );
  assert.deepEqual(
    idx.skippedLines.map((s) => s.line),
    [2, 3, 5],
  );
});

test('iteration, group and rollout are exact to 2^53; beyond, fractional or negative, the line is refused by number', async () => {
  const text =
    [
      rec(3),
      rec(4294967299),
      rec(2 ** 53 - 1),
      rec('18446744073709551615'),
      rec('3.5'),
      rec(-1),
      rec(5).replace('"group": 0', '"group": 4294967296'),
    ].join('\n') + '\n';
  const idx = await index(text);
  assert.deepEqual(
    Array.from({ length: idx.size }, (_, i) => idx.row(i).iteration),
    [3, 4294967299, 2 ** 53 - 1, 5],
  );
  assert.equal(idx.row(3).group, 4294967296);
  assert.deepEqual(
    idx.skippedLines.map((s) => s.line),
    [4, 5, 6],
  );
  for (const s of idx.skippedLines) assert.match(s.message, /iteration/);
  const row = idx.find(4294967299, 0, 0);
  assert.equal(row, 1);
  assert.equal((await idx.read(row)).iteration, 4294967299);
  assert.equal(idx.find(3, 0, 0), 0);
});

const labeledTurn = (extra: string): string =>
  `[{"action": "click(point_2d=[1, 1])", "scores": [10, 0], "same": [true, false], "c": 0.5${extra}}]`;

test('a NaN A_t is no sign flip; a NaN A leaves its turns out of the dose', async () => {
  const flip = await index(rec(0, '', labeledTurn(', "A_t": NaN')) + '\n');
  const r1 = computeReport(flip).report;
  assert.equal(r1.signFlipRate, null);
  assert.equal(r1.aTMismatches, 1);
  // A = 1, c = 0.5 and A = NaN, c = 0.5: the dose is over the first alone, sqrt((0.4*0.5)^2) / 1 = 0.2
  const dose = await index(
    rec(0, '', labeledTurn(', "A_t": 1.2')).replace('"A": 0.5', '"A": 1') +
      '\n' +
      rec(1, '', labeledTurn(', "A_t": NaN')).replace('"A": 0.5', '"A": NaN') +
      '\n',
  );
  const r2 = computeReport(dose).report;
  assert.ok(Math.abs(r2.rmsBetaCOverRmsA! - 0.2) < 1e-12, String(r2.rmsBetaCOverRmsA));
  assert.equal(r2.meanC, 0.5);
});

test('what JSON.parse refuses, the index refuses too, by line number: control characters, 007, bad escapes, broken extras', async () => {
  const lines = [
    rec(0),
    rec(1, ', "note": "a\u0001b"'),
    rec(2, ', "x": 007'),
    rec('007'),
    rec(4, ', "x": -007.5'),
    rec(5, ', "meta": [1,,2]'),
    rec(6, ', "meta": {"a" 1}'),
    rec(7, ', "meta": [1, 2 3]'),
    rec(8, '', '[{"action": "wait()\u001b]0;x\u0007", "A_t": 0.5}]'),
    rec(9, ',\t"note":\t"tabs between tokens are whitespace"'),
    rec(10, ', "note": "a\tb"'),
    rec(11, ', "meta": [1e5, -0.5, {"k": [true, false, null, NaN, -Infinity]}, "\\u00e9\\n"]'),
    rec(12, ', "x": 1.'),
    rec(13, ', "x": -'),
    rec(14, ', "x": [1, 2]]'),
    // escapes inside strings the fast reader skips: JSON.parse refuses each of these
    rec(15, ', "note": "a\\xb"'),
    rec(16, ', "note": "\\u12"'),
    rec(17, ', "note": "\\u12g4"'),
    rec(18, ', "meta": {"k\\q": 1}'),
    // and takes these
    rec(19, ', "note": "\\\\x \\" \\/ \\b\\f\\n\\r\\t \\u00E9"'),
  ];
  for (const l of lines.slice(-5, -1)) assert.throws(() => JSON.parse(l), 'the fixture line is invalid JSON');
  JSON.parse(lines[lines.length - 1]!);
  const idx = await index(lines.join('\n') + '\n');
  assert.deepEqual(
    Array.from({ length: idx.size }, (_, i) => idx.row(i).iteration),
    [0, 9, 11, 19],
  );
  assert.deepEqual(
    idx.skippedLines.map((s) => s.line),
    [2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 14, 15, 16, 17, 18, 19],
  );
  await everyRowReadsBack(idx);
});

test('one truthiness rule: only true is true; "masked": 1 is flagged as a wrong type, and index and detail agree', async () => {
  const idx = await index(rec(0, '', labeledTurn(', "A_t": 0.7, "masked": 1')) + '\n');
  const r = idx.row(0);
  assert.equal(r.creditedTurns, 1);
  assert.equal(idx.columns.maskedTurns[0], 0);
  const t = await idx.read(0);
  assert.equal(t.turns[0]!.masked, false);
  const check = idx.schemaCheck();
  const masked = check.fields.find((f) => f.level === 'turn' && f.field === 'masked')!;
  assert.equal(masked.wrongType, 1);
  assert.deepEqual(masked.wrongTypeLines, [1]);
});

test('wrong-typed fields are flagged per line in the schema check and the report names them', async () => {
  const text =
    [rec(0), rec(1, '', '5'), rec(2).replace('"reward": 1', '"reward": "1"'), rec(3).replace('"A": 0.5', '"A": true')].join('\n') + '\n';
  const idx = await index(text);
  assert.equal(idx.size, 4);
  const check = idx.schemaCheck();
  const f = (name: string) => check.fields.find((x) => x.level === 'trajectory' && x.field === name)!;
  assert.deepEqual(f('turns').wrongTypeLines, [2]);
  assert.deepEqual(f('reward').wrongTypeLines, [3]);
  assert.deepEqual(f('A').wrongTypeLines, [4]);
  assert.ok(Number.isNaN(idx.row(2).reward));
  assert.ok(Number.isNaN(idx.row(3).A));
  const w = computeReport(idx).report.warnings.join('\n');
  assert.match(w, /reward.*line 3/);
  assert.match(w, /turns.*line 2/);
});

test('a UTF-16 log is named as such, not read as 0 trajectories', async () => {
  const text = rec(0) + '\n';
  for (const buf of [
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    Buffer.from(text, 'utf16le'),
    Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
  ]) {
    const idx = new CreditIndex(logFile(buf));
    await assert.rejects(idx.update(), /UTF-16/);
  }
});

test('a field or metric named __proto__ is kept as data', async () => {
  const idx = await index(rec(0, ', "__proto__": 5, "constructor": 6') + '\n');
  const t = await idx.read(0);
  assert.equal(Object.getOwnPropertyDescriptor(t.extras, '__proto__')?.value, 5);
  assert.equal(Object.getOwnPropertyDescriptor(t.extras, 'constructor')?.value, 6);
  const m = new MetricsIndex(logFile('{"iteration": 0, "__proto__": 1, "constructor": 2}\n', 'ws_metrics.jsonl'));
  await m.update();
  assert.deepEqual(m.getTable().names.slice().sort(), ['__proto__', 'constructor']);
  assert.equal(METRIC_TARGETS['__proto__'], undefined);
  assert.equal(METRIC_TARGETS['constructor'], undefined);
});

test('an unreadable metrics log is a warning: the report needs only the credit log', async () => {
  const credit = logFile(rec(0) + '\n');
  const run = new Run({ root: tempDir(), name: 'r', creditLog: credit, metricsLog: join(tempDir(), 'gone', 'ws_metrics.jsonl') });
  await run.update();
  const r = run.report()!;
  assert.equal(r.report.trajectories, 1);
  assert.ok(r.report.warnings.some((w) => w.includes('ws_metrics.jsonl') && /ENOENT/.test(w)));
});

test('a line over the size limit is skipped by number without being read whole; the lines after it keep their numbers', async () => {
  const long = rec(1, `, "pad": "${'x'.repeat(20000)}"`);
  const text = [rec(0), long, rec(2), long + ' x', rec(4)].join('\n') + '\n';
  const idx = await index(text, { maxLineBytes: 10000 });
  assert.deepEqual(
    Array.from({ length: idx.size }, (_, i) => idx.row(i).iteration),
    [0, 2, 4],
  );
  assert.deepEqual(
    idx.skippedLines.map((s) => s.line),
    [2, 4],
  );
  assert.match(idx.skippedLines[0]!.message, /longer than/);
  assert.deepEqual(
    Array.from({ length: idx.size }, (_, i) => idx.row(i).line),
    [1, 3, 5],
  );
  await everyRowReadsBack(idx);
});

test('a record that JSON.parse refuses when opened names its line (escapes inside skipped strings are checked only then)', async () => {
  const idx = await index([rec(0), rec(1, ', "note": "bad \\x escape"')].join('\n') + '\n');
  const row = idx.find(1, 0, 0);
  if (row >= 0) await assert.rejects(idx.read(row), /ws_credit_log\.jsonl:2: not JSON/);
  else
    assert.deepEqual(
      idx.skippedLines.map((s) => s.line),
      [2],
    );
});
