/** The saved metrics index: kept and checked as the credit index's is (unchanged, grown, shrunk, replaced, other options, other version, damaged). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { MetricsIndex } from '../../src/core/log/metricsIndex';
import { IndexStore } from '../../src/core/log/indexStore';
import { decodeFrame, encodeFrame } from '../../src/core/log/indexCodec';
import type { Section } from '../../src/core/log/indexCodec';
import { Run } from '../../src/core/run/run';
import { writeDemo } from '../../src/core/demo/demo';

/** Everything the index says, for deepStrictEqual (NaN and -0 compare by value). */
function figures(m: MetricsIndex): unknown {
  const t = m.getTable();
  return {
    iterations: t.iterations,
    series: t.names.map((name) => ({ name, values: [...t.values(name)!] })),
    duplicates: m.duplicates(),
    skipped: m.skippedLines,
    skippedCount: m.skippedCount,
    rows: m.rowCount,
    rowsWithoutIteration: m.rowsWithoutIteration,
  };
}

const LINES = [
  '{"iteration": 1, "ws/c_mean": 0.5, "loss": -0, "lr": 1e-5, "note": "text is not a metric"}',
  '{"iteration": 2, "ws/c_mean": null, "loss": 1.7976931348623157e308, "__proto__": 3}',
  'not json',
  '{"step": 3, "ws/c_mean": 0.25, "ünïcode/metric": 2}',
  '{"loss": 4}',
  '',
  '{"iteration": 2, "ws/c_mean": 0.75, "loss": 0.1}\r',
];

async function open(path: string, store?: IndexStore, iterationKey?: string): Promise<MetricsIndex> {
  const m = new MetricsIndex(path, iterationKey ? { iteration: iterationKey } : {}, store ? { store } : {});
  await m.update();
  return m;
}

function setup(): { log: string; store: IndexStore; dir: string } {
  const log = join(tempDir(), 'ws_metrics.jsonl');
  writeFileSync(log, LINES.join('\n') + '\n');
  const dir = join(tempDir(), 'cache');
  return { log, store: new IndexStore(dir), dir };
}

const indexFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.rlrbidx'));

test('an unchanged metrics log opens from its saved index without reading a byte, with the same table, duplicates and skipped lines', async () => {
  const { log, store, dir } = setup();
  const first = await open(log, store);
  assert.equal(first.cacheUse, 'none');
  assert.equal(first.cacheError, undefined);
  assert.equal(indexFiles(dir).length, 1);
  const second = new MetricsIndex(log, {}, { store });
  const r = await second.update();
  assert.equal(second.cacheUse, 'unchanged');
  assert.equal(r.bytesRead, 0);
  assert.deepStrictEqual(figures(second), figures(await open(log)));
  assert.ok(Object.is(second.getTable().values('loss')![0], -0), '-0 survives');
});

test('a grown metrics log reads only its new bytes; the result equals a fresh read', async () => {
  const { log, store } = setup();
  await open(log, store);
  const more = '{"iteration": 9, "ws/c_mean": 0.125}\nbroken\n';
  appendFileSync(log, more);
  const m = new MetricsIndex(log, {}, { store });
  const r = await m.update();
  assert.equal(m.cacheUse, 'grown');
  assert.equal(r.bytesRead, Buffer.byteLength(more));
  assert.deepStrictEqual(figures(m), figures(await open(log)));
});

test('a shrunk or replaced metrics log, other options, another version or a damaged index file: rebuilt, never trusted', async () => {
  const { log, store, dir } = setup();
  await open(log, store);
  // shrunk
  writeFileSync(log, LINES.slice(0, 2).join('\n') + '\n');
  let m = await open(log, store);
  assert.equal(m.cacheUse, 'none');
  assert.deepStrictEqual(figures(m), figures(await open(log)));
  // replaced: same size, other bytes and time
  const text = readFileSync(log, 'utf8').replace('0.5', '0.9');
  writeFileSync(log, text);
  utimesSync(log, new Date(), new Date(Date.now() + 5000));
  m = await open(log, store);
  assert.equal(m.cacheUse, 'none');
  assert.equal(m.getTable().values('ws/c_mean')![0], 0.9);
  // other options: another iteration key is another index
  m = await open(log, store, 'step');
  assert.equal(m.cacheUse, 'none');
  assert.equal(indexFiles(dir).length, 2);
  // another version: the frame is refused whole (every saved index rewritten as version 99)
  const file = join(dir, indexFiles(dir)[0]!);
  const frame = decodeFrame(readFileSync(file))!;
  assert.ok(frame, 'the saved metrics index decodes');
  const copy = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
  const sections: Section[] = [...frame.sections].map(([n, s]) => {
    const data = s.type === 'f64' ? new Float64Array(copy(s.bytes)) : new Uint32Array(copy(s.bytes));
    return { name: n, count: data.length, data };
  });
  const other = Buffer.concat(encodeFrame(frame.header, sections, 99));
  for (const f of indexFiles(dir)) writeFileSync(join(dir, f), other);
  m = await open(log, store);
  assert.equal(m.cacheUse, 'none', 'another version');
  // damaged: one byte flipped
  const good = indexFiles(dir)
    .map((f) => join(dir, f))
    .find((f) => decodeFrame(readFileSync(f)) !== undefined);
  assert.ok(good, 'the rebuilt index was saved again');
  const saved = readFileSync(good);
  saved[saved.length - 3] = saved[saved.length - 3]! ^ 0xff;
  writeFileSync(good, saved);
  m = await open(log, store);
  assert.equal(m.cacheUse, 'none', 'damaged');
  assert.deepStrictEqual(figures(m), figures(await open(log)));
});

test('a forged metrics index that decodes but does not hold together is ignored (a row number out of range)', async () => {
  const { log, store, dir } = setup();
  await open(log, store);
  const file = join(dir, indexFiles(dir)[0]!);
  const frame = decodeFrame(readFileSync(file))!;
  const sections: Section[] = [...frame.sections].map(([n, s]) => {
    const bytes = Buffer.from(s.bytes);
    const data =
      s.type === 'f64'
        ? new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8)
        : new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    if (n === 'rowOf') data[0] = 1e6;
    return { name: n, count: data.length, data };
  });
  writeFileSync(file, Buffer.concat(encodeFrame(frame.header, sections)));
  const before = statSync(log);
  const m = await open(log, store);
  assert.equal(m.cacheUse, 'none');
  assert.equal(statSync(log).size, before.size);
  assert.deepStrictEqual(figures(m), figures(await open(log)));
});

test('a run opened with a store saves and reopens its metrics index too', async () => {
  const root = tempDir();
  writeDemo(root, { trajectories: 200, hubRepo: false, baseline: false });
  const store = new IndexStore(join(tempDir(), 'cache'));
  const a = await Run.open(root, undefined, { store });
  await a!.update();
  const b = await Run.open(root, undefined, { store });
  await b!.update();
  assert.equal(b!.metrics!.cacheUse, 'unchanged');
  assert.equal(b!.credit!.cacheUse, 'unchanged');
  assert.deepStrictEqual(figures(b!.metrics!), figures(a!.metrics!));
});
