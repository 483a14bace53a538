/** The exports' Parquet writer, its edge values read back by hyparquet: nulls, lists, 64-bit integers, statistics, row groups. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { ParquetTable } from '../../src/core/export/parquetTable';
import type { CellValue, ParquetColumn } from '../../src/core/export/parquetTable';
import type { ExportSink } from '../../src/core/export/sink';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';

type Row = readonly CellValue[];

const COLUMNS: readonly ParquetColumn<Row>[] = [
  { name: 'i64', type: 'int', get: (r) => r[0]! },
  { name: 'i32', type: 'int32', get: (r) => r[1]! },
  { name: 'f', type: 'float', get: (r) => r[2]! },
  { name: 's', type: 'string', get: (r) => r[3]! },
  { name: 'b', type: 'bool', get: (r) => r[4]! },
  { name: 'lf', type: { list: 'float' }, get: (r) => r[5]! },
  { name: 'ls', type: { list: 'string' }, get: (r) => r[6]! },
  { name: 'lb', type: { list: 'bool' }, get: (r) => r[7]! },
];

const ROWS: Row[] = [
  [-5, -(2 ** 31) + 1, -0, 'a', true, [1.5, null, NaN], ['x', 'é'], [true, false]],
  [2 ** 53 - 1, 2 ** 31, Infinity, 'naïve 😀', false, [], [], []],
  [-(2 ** 40) - 3, 7, 0.1, null, null, null, null, null],
  [1.5, 3.5, 2, 'b', true, 'no list', [null], [true]],
  [2 ** 53, null, null, '', false, [2], ['z'], [false, false, false]],
];

const EXPECTED = [
  [-5n, -(2 ** 31) + 1, -0, 'a', true, [1.5, null, null], ['x', 'é'], [true, false]],
  [2n ** 53n - 1n, null, null, 'naïve 😀', false, [], [], []],
  [-(2n ** 40n) - 3n, 7, 0.1, null, null, null, null, null],
  [null, null, 2, 'b', true, null, [null], [true]],
  [null, null, null, '', false, [2], ['z'], [false, false, false]],
];

async function written(rows: readonly Row[], groupRows: number, footer?: ParquetTable<Row>['footer']): Promise<ArrayBuffer> {
  const chunks: Buffer[] = [];
  const sink: ExportSink = { write: async (c) => void chunks.push(c) };
  const t = new ParquetTable(COLUMNS, sink, groupRows);
  if (footer) t.footer = footer;
  for (const r of rows) await t.add(r);
  await t.finish();
  assert.equal(t.count, rows.length);
  assert.equal(t.written, Buffer.concat(chunks).length);
  return new Uint8Array(Buffer.concat(chunks)).buffer;
}

test('every column type reads back as written, null where a value is not of its type', async () => {
  for (const groupRows of [2, 10]) {
    const file = await written(ROWS, groupRows);
    const back = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    assert.deepEqual(
      back.map((o) => COLUMNS.map((c) => o[c.name] ?? null)),
      EXPECTED,
      `row groups of ${groupRows}`,
    );
    assert.equal(parquetMetadata(file).row_groups.length, Math.ceil(ROWS.length / groupRows));
  }
});

test('a column chunk carries its null count and min/max, strings in UTF-8 byte order', async () => {
  const file = await written(ROWS, 10);
  const meta = parquetMetadata(file);
  const stats = Object.fromEntries(meta.row_groups[0]!.columns.map((c) => [c.meta_data!.path_in_schema[0], c.meta_data!.statistics!]));
  assert.deepEqual([stats['i64']!.min_value, stats['i64']!.max_value, stats['i64']!.null_count], [-(2n ** 40n) - 3n, 2n ** 53n - 1n, 2n]);
  assert.deepEqual([stats['f']!.min_value, stats['f']!.max_value, stats['f']!.null_count], [-0, 2, 2n]);
  assert.deepEqual([stats['b']!.min_value, stats['b']!.max_value], [false, true]);
  // null lists, empty lists and null elements: one slot each
  assert.equal(stats['lf']!.null_count, 5n);
  // JS order puts U+FFFD after an emoji (a surrogate pair); UTF-8 byte order puts it before
  assert.deepEqual([stats['s']!.min_value, stats['s']!.max_value], ['', 'naïve 😀']);
  const order = parquetMetadata(
    await written(
      [['\uFFFD'], ['😀'], [new Uint8Array([0x61])]].map((r) => [null, null, null, ...r, null, null, null, null]),
      10,
    ),
  );
  const so = order.row_groups[0]!.columns[3]!.meta_data!.statistics!;
  assert.deepEqual([so.min_value, so.max_value], ['a', '😀'], 'byte order, a cell given as bytes among them');
  const ascii = parquetMetadata(await written([ROWS[0]!, ROWS[3]!], 10));
  const s = ascii.row_groups[0]!.columns[3]!.meta_data!.statistics!;
  assert.deepEqual([s.min_value, s.max_value], ['a', 'b']);
});

test("the footer's bytes are hyparquet-writer's writeMetadata's", async () => {
  // every type, nulls, -0, NaN, non-ASCII min/max, one and several row groups, no rows
  for (const [rows, group] of [
    [ROWS, 10],
    [ROWS, 2],
    [[...ROWS, ...ROWS.slice().reverse()], 3],
    [[], 10],
  ] as const) {
    const ours = Buffer.from(await written(rows, group));
    const theirs = Buffer.from(await written(rows, group, writeMetadata));
    assert.ok(ours.equals(theirs), `${rows.length} rows, groups of ${group}`);
  }
});

test('a table without rows is a valid file', async () => {
  const file = await written([], 10);
  assert.equal(Number(parquetMetadata(file).num_rows), 0);
  assert.deepEqual(await parquetReadObjects({ file }), []);
});

test('a table restarted into another sink writes a whole file of its new rows alone', async () => {
  const first: Buffer[] = [];
  const t = new ParquetTable(COLUMNS, { write: async (c) => void first.push(c) }, 10);
  // a file abandoned midway (a failed partition), then one finished, then one more
  for (const r of ROWS.slice(0, 3)) await t.add(r);
  for (const [rows, expected] of [
    [ROWS.slice(3), EXPECTED.slice(3)],
    [ROWS.slice(0, 2), EXPECTED.slice(0, 2)],
  ] as const) {
    const chunks: Buffer[] = [];
    t.restart({ write: async (c) => void chunks.push(c) });
    for (const r of rows) await t.add(r);
    await t.finish();
    assert.equal(t.count, rows.length);
    const file = new Uint8Array(Buffer.concat(chunks)).buffer;
    const back = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    assert.deepEqual(
      back.map((o) => COLUMNS.map((c) => o[c.name] ?? null)),
      expected,
    );
  }
});

test('the min and max of strings that share prefixes are those of a sort', async () => {
  let s = 7;
  const rnd = (n: number): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % n;
  const parts = ['run', 'run/1', 'run/1/2', 'run/10', 'ru', 'é', '/', ''];
  for (let round = 0; round < 200; round++) {
    const values = Array.from({ length: 1 + rnd(12) }, () => Array.from({ length: rnd(4) }, () => parts[rnd(parts.length)]!).join(''));
    const rows = values.map((v, k) => [null, null, null, k % 3 === 2 ? Buffer.from(v) : v, null, null, null, null]);
    const stats = parquetMetadata(await written(rows, 100)).row_groups[0]!.columns[3]!.meta_data!.statistics!;
    const sorted = values.map((v) => Buffer.from(v)).sort((a, b) => Buffer.compare(a, b));
    const expected = [sorted[0]!.toString(), sorted[sorted.length - 1]!.toString()];
    assert.deepEqual([stats.min_value, stats.max_value], expected, JSON.stringify(values));
  }
});
