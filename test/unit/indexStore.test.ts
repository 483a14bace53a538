/** The saved index: an unchanged log opens from it, a grown one reads only its new bytes, anything else is rebuilt. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { CreditIndex, DEFAULT_INDEX_OPTIONS } from '../../src/core/log/creditIndex';
import type { IndexOptions } from '../../src/core/log/creditIndex';
import { IndexStore } from '../../src/core/log/indexStore';
import { decodeFrame, encodeFrame, INDEX_FORMAT_VERSION } from '../../src/core/log/indexCodec';
import type { Section } from '../../src/core/log/indexCodec';
import { computeReport } from '../../src/core/report/report';
import { writeDemo } from '../../src/core/demo/demo';

const CHILD = process.env['RLRB_INDEX_STORE_CHILD'];

/** Everything an index holds, for deepEqual: every column cut to its rows, skipped lines, schema check and report. */
function figures(idx: CreditIndex): unknown {
  const cols: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(idx.columns)) cols[k] = Array.from((v as Float64Array).subarray(0, idx.size));
  return {
    size: idx.size,
    cols,
    skipped: idx.skippedLines,
    skippedCount: idx.skippedCount,
    bytes: idx.bytesIndexed,
    schema: idx.schemaCheck(),
    report: computeReport(idx).report,
  };
}

async function open(path: string, store: IndexStore, options?: IndexOptions): Promise<CreditIndex> {
  const idx = new CreditIndex(path, options ?? DEFAULT_INDEX_OPTIONS, undefined, { store });
  await idx.update();
  return idx;
}

async function fresh(path: string, options?: IndexOptions): Promise<unknown> {
  const idx = new CreditIndex(path, options);
  await idx.update();
  return figures(idx);
}

/** A demo credit log with a few bad lines, and a store in a folder of its own. */
function setup(): { log: string; store: IndexStore; dir: string } {
  const root = tempDir();
  writeDemo(root, { trajectories: 400, seed: 7 });
  const log = join(root, 'logs', 'ws_credit_log.jsonl');
  appendFileSync(log, 'not json\n{"iteration": 99, "turns": 3}\n\n');
  const dir = join(tempDir(), 'cache');
  return { log, store: new IndexStore(dir), dir };
}

const indexFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.rlrbidx'));

if (CHILD !== undefined) {
  // a child process of the concurrent-writers test: index and save, then exit
  const [log, dir] = JSON.parse(CHILD) as [string, string];
  void open(log, new IndexStore(dir)).then((idx) => process.exit(idx.cacheError === undefined ? 0 : 1));
} else {
  test('an unchanged log opens from its saved index without reading the log, with the same figures', async () => {
    const { log, store } = setup();
    const first = await open(log, store);
    assert.equal(first.cacheUse, 'none');
    assert.equal(first.cacheError, undefined);
    const second = new CreditIndex(log, undefined, undefined, { store });
    const r = await second.update();
    assert.equal(second.cacheUse, 'unchanged');
    assert.equal(r.bytesRead, 0);
    assert.deepEqual(figures(second), await fresh(log));
    assert.ok(second.skippedCount >= 1);
  });

  test('a log that grew reads only the appended bytes, then equals a fresh index', async () => {
    const { log, store } = setup();
    await open(log, store);
    const before = statSync(log).size;
    const text = readFileSync(log, 'utf8').split('\n');
    const extra = text.slice(0, 30).join('\n') + '\nbad line\r\n';
    appendFileSync(log, extra);
    const idx = new CreditIndex(log, undefined, undefined, { store });
    const r = await idx.update();
    assert.equal(idx.cacheUse, 'grown');
    assert.equal(r.bytesRead, statSync(log).size - before);
    assert.deepEqual(figures(idx), await fresh(log));
    // and the saved index was brought up to date
    const third = await open(log, store);
    assert.equal(third.cacheUse, 'unchanged');
    assert.deepEqual(figures(third), await fresh(log));
  });

  test('a log that shrank, or was replaced (same size, other bytes), is indexed again from byte 0', async () => {
    const { log, store } = setup();
    await open(log, store);
    truncateSync(log, Math.floor(statSync(log).size / 2));
    const shrunk = await open(log, store);
    assert.equal(shrunk.cacheUse, 'none');
    assert.deepEqual(figures(shrunk), await fresh(log));
    // replaced: same size, a later mtime, the bytes of another run
    const other = tempDir();
    writeDemo(other, { trajectories: 400, seed: 8 });
    const text = readFileSync(join(other, 'logs', 'ws_credit_log.jsonl')).subarray(0, statSync(log).size);
    writeFileSync(log, text);
    const later = new Date(Date.now() + 5000);
    utimesSync(log, later, later);
    const replaced = await open(log, store);
    assert.equal(replaced.cacheUse, 'none');
    assert.deepEqual(figures(replaced), await fresh(log));
    // replaced by a longer file whose first bytes differ: not taken for an append
    const third = tempDir();
    writeDemo(third, { trajectories: 400, seed: 9 });
    const longer = readFileSync(join(third, 'logs', 'ws_credit_log.jsonl'));
    writeFileSync(log, Buffer.concat([longer, longer]));
    const grownOther = await open(log, store);
    assert.equal(grownOther.cacheUse, 'none');
    assert.deepEqual(figures(grownOther), await fresh(log));
  });

  test('a damaged, truncated or foreign index file is ignored and rebuilt', async () => {
    const { log, store, dir } = setup();
    await open(log, store);
    const [name] = indexFiles(dir);
    const file = join(dir, name!);
    const good = readFileSync(file);
    const damaged = Buffer.from(good);
    damaged[damaged.length - 100] = damaged[damaged.length - 100]! ^ 0x55;
    const cases: [string, Buffer][] = [
      ['one byte flipped', damaged],
      ['cut short', good.subarray(0, good.length - 8)],
      ['not an index', Buffer.from('{"hello": "world"}\n')],
      ['empty', Buffer.alloc(0)],
    ];
    const want = await fresh(log);
    for (const [what, bytes] of cases) {
      writeFileSync(file, bytes);
      const idx = await open(log, store);
      assert.equal(idx.cacheUse, 'none', what);
      assert.deepEqual(figures(idx), want, what);
    }
  });

  test('an index of another format version, of other options, or naming offsets past the file is not used', async () => {
    const { log, store, dir } = setup();
    await open(log, store);
    const [name] = indexFiles(dir);
    const file = join(dir, name!);
    const frame = decodeFrame(readFileSync(file))!;
    assert.ok(frame);
    const sections = (edit?: (k: string, a: Float64Array) => void): Section[] =>
      [...frame.sections].map(([k, s]) => {
        const Make = s.type === 'f64' ? Float64Array : s.type === 'u32' ? Uint32Array : Uint16Array;
        const data = new Make(s.bytes.length / Make.BYTES_PER_ELEMENT);
        new Uint8Array(data.buffer).set(s.bytes);
        if (edit && data instanceof Float64Array) edit(k, data);
        return { name: k, count: data.length, data };
      });
    const { sections: _t, ...header } = frame.header;
    const write = (parts: Buffer[]): void => writeFileSync(file, Buffer.concat(parts));
    // the same frame re-encoded is used (so that the cases below fail for the reason they name)
    write(encodeFrame(header, sections()));
    assert.equal((await open(log, store)).cacheUse, 'unchanged');
    write(encodeFrame(header, sections(), INDEX_FORMAT_VERSION + 1));
    assert.equal((await open(log, store)).cacheUse, 'none', 'another version');
    // an index saved before the behaviour columns (version 1) is rebuilt, not misread
    write(encodeFrame(header, sections(), 1));
    assert.equal((await open(log, store)).cacheUse, 'none', 'the version before the behaviour tags');
    write(
      encodeFrame(
        header,
        sections((k, a) => {
          if (k === 'offset') a[a.length - 1] = statSync(log).size + 10;
        }),
      ),
    );
    assert.equal((await open(log, store)).cacheUse, 'none', 'an offset past the end');
    write(encodeFrame({ ...header, options: '{}' }, sections()));
    assert.equal((await open(log, store)).cacheUse, 'none', 'other options in the header');
    // other options: another index file, and the first one left as it was
    const opts: IndexOptions = { ...DEFAULT_INDEX_OPTIONS, credit: { ...DEFAULT_INDEX_OPTIONS.credit, beta: 0.9 } };
    const other = await open(log, store, opts);
    assert.equal(other.cacheUse, 'none');
    assert.deepEqual(figures(other), await fresh(log, opts));
    assert.equal(indexFiles(dir).length, 2);
    assert.equal((await open(log, store, opts)).cacheUse, 'unchanged');
  });

  test('two processes saving the same index at once leave one whole index and no temp files', async () => {
    const { log, dir } = setup();
    const run = (): Promise<number | null> =>
      new Promise((res) => {
        const c = spawn(process.execPath, [__filename], {
          env: { ...process.env, RLRB_INDEX_STORE_CHILD: JSON.stringify([log, dir]) },
          stdio: 'inherit',
        });
        c.on('exit', (code) => res(code));
      });
    const codes = await Promise.all([run(), run(), run()]);
    assert.deepEqual(codes, [0, 0, 0]);
    assert.equal(indexFiles(dir).length, 1);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
    const idx = await open(log, new IndexStore(dir));
    assert.equal(idx.cacheUse, 'unchanged');
    assert.deepEqual(figures(idx), await fresh(log));
  });

  test('the store keeps under its size limit, least recently used first, and clear empties it', async () => {
    const { log, dir } = setup();
    const one = await open(log, new IndexStore(dir));
    assert.equal(one.cacheUse, 'none');
    const size = statSync(join(dir, indexFiles(dir)[0]!)).size;
    const small = new IndexStore(dir, { maxBytes: Math.floor(size * 1.5) });
    const opts = (beta: number): IndexOptions => ({ ...DEFAULT_INDEX_OPTIONS, credit: { ...DEFAULT_INDEX_OPTIONS.credit, beta } });
    const old = new Date(Date.now() - 60_000);
    for (const f of indexFiles(dir)) utimesSync(join(dir, f), old, old);
    await open(log, small, opts(0.7));
    assert.equal(indexFiles(dir).length, 1, 'the older index was swept');
    assert.equal((await open(log, small, opts(0.7))).cacheUse, 'unchanged');
    assert.equal((await open(log, small)).cacheUse, 'none');
    const cleared = await small.clear();
    assert.equal(cleared.files, 1);
    assert.deepEqual(indexFiles(dir), []);
  });
}
