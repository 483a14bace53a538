/** The dataset's reader of a record: the byte scanner and the slow path (JSON.parse, normaliseRecord) read the same texts, turns and numbers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { buildSchemaTables } from '../../src/core/record/schema';
import { RecordTurnsReader } from '../../src/core/export/dataset/recordTurns';
import type { RecordTurns } from '../../src/core/export/dataset/recordTurns';
import { ByteActions } from '../../src/core/behaviour/byteActions';
import { HAND_LOG } from '../fixtures';
import { jsonl, tempDir } from '../helpers';

const turn = (action: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ action, ...extra });
const rec = (rollout: number, fields: Record<string, unknown>, turns: unknown[]): string =>
  JSON.stringify({ iteration: 0, group: 0, rollout, reward: 1, A: 0.5, ...fields, turns });

/** Decimals of 15 to 17 digits as a writer prints them, some around 2^53 (9007199254740992): `n` of them. */
function longDecimals(n: number): string[] {
  let s = 11;
  const digit = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % 10;
  const out = [
    '0.9007199254740991',
    '0.9007199254740992',
    '0.9007199254740993',
    '900719925474099.3',
    '-9.007199254740993',
    '9007199254740993',
  ];
  while (out.length < n) {
    const len = 15 + (out.length % 3);
    let d = String(1 + (digit() % 9));
    while (d.length < len) d += String(digit());
    const point = digit() % 5;
    out.push(`${out.length % 2 ? '-' : ''}${point === 0 ? '0' : d.slice(0, point)}.${d.slice(point)}`);
  }
  return out;
}
const LONG = longDecimals(600);

const LINES = [
  // decimals of 16 and 17 digits, read by the scanner's division or by Number: as JSON.parse reads them
  `{"iteration": 0, "group": 0, "rollout": 4, "reward": 1, "A": ${LONG[1]}, "turns": [${LONG.slice(0, 300)
    .map((x, k) => `{"action": "a", "c": ${x}, "A_t": ${LONG[599 - k]}, "scores": [${x}, ${LONG[300 + (k % 300)]}]}`)
    .join(', ')}]}`,
  // 17 significant digits, exponents, negative zero: read as JSON.parse reads them
  rec(0, { task_id: 'a\u00e9\\"b', instruction: 'line\nbreak 😀' }, [
    turn('click(point_2d=[1, 2]) \u00e9\\n', { A_t: 0.20802500000000004 }),
    // the same long number's bytes again, then one of the same length that differs in its last digit
    turn('wait()', { A_t: 0.20802500000000004, c: 0.20802500000000004, scores: [0.20802500000000006, 0.20802500000000004] }),
    turn('click(point_2d=[1, 2])', { scores: [0.20802500000000004, -1.5e-7, -0, 12345678901234567], c: 0.30000000000000004, A_t: 1e21 }),
    turn('type(text="\\u00e9\\"")', { scores: [1, 2], same: [true, false], done: [false, true], c: null }),
    turn(null, { candidates: ['scroll(direction="down")', 'scroll(direction="down", amount=3)', 'done()'], scores: [1, 2, 3] }),
  ]),
  // Python's tokens and a turn the scanner does not expect (not an object): the slow path's
  '{"iteration": 0, "group": 0, "rollout": 1, "reward": NaN, "A": 0.5, "task_id": null, "turns": [{"action": "a", "c": NaN, "A_t": Infinity}, "b"]}',
  rec(2, { instruction: 42 }, [turn('done()', { scores: ['x', 1] })]),
  // escapes as other writers write them: \u of ASCII, of a BMP letter and of a surrogate pair, \/ and \t
  String.raw`{"iteration": 0, "group": 0, "rollout": 3, "reward": 1, "A": 0.5, "turns": [{"action": "type(text=\u0022caf\u00e9\u0022)\/\t"}, {"action": "write(\ud83d\ude00 \u20ac)"}, {"action": "\\\"\b\f\n\r"}]}`,
  ...HAND_LOG.map((r) => JSON.stringify(r)),
].join('\n');

const plain = (r: RecordTurns): unknown => ({
  taskId: r.taskId,
  instruction: r.instruction,
  turns: r.turns.map((t, k) => ({
    action: r.action(k),
    // the cell as the dataset writes it: bytes as logged (ASCII without an escape) or the text
    cell: ((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v))(r.actionCell(k)),
    key: r.actions.key(k),
    next: k + 1 < r.turns.length ? r.actions.same(k, k + 1) : null,
    scores: t.scores,
    same: t.same,
    done: t.done,
    c: t.c,
    At: t.At,
    masked: t.masked,
    fallback: t.fallback,
  })),
});

test('a record reads the same through the byte scanner and through JSON.parse and normaliseRecord', async () => {
  const path = join(tempDir(), 'log.jsonl');
  writeFileSync(path, LINES + '\n' + jsonl([]));
  const index = new CreditIndex(path);
  await index.update();
  assert.ok(index.size >= 5);
  const tables = buildSchemaTables(index.options.mapping);
  const fast = new RecordTurnsReader(index, tables);
  const slow = new RecordTurnsReader(index, tables, false);
  const text = readFileSync(path);
  let scanned = 0;
  for (let row = 0; row < index.size; row++) {
    const bytes = text.subarray(index.columns.offset[row], index.columns.offset[row]! + index.columns.length[row]!);
    const r = fast.read(row, bytes);
    if (r.actions instanceof ByteActions) scanned++;
    assert.deepEqual(plain(r), plain(slow.read(row, bytes)), `line ${index.columns.line[row]}`);
  }
  assert.ok(scanned >= 3 && scanned < index.size, `the scanner read ${scanned} of ${index.size}, the slow path the rest`);
});
