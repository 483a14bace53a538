/** The threaded indexer gives exactly what one thread gives: on the demo and on a hostile log cut at awkward places. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers';
import { CreditIndex, DEFAULT_INDEX_OPTIONS } from '../../src/core/log/creditIndex';
import type { Columns } from '../../src/core/log/creditIndex';
import type { ThreadOptions } from '../../src/core/log/threads/pool';
import { autoThreads } from '../../src/core/log/threads/pool';
import { othersBusy } from '../../src/core/log/threads/busyCores';
import { guidedTargets, MIN_PART_BYTES } from '../../src/core/log/threads/split';
import { observerToJson } from '../../src/core/log/observerCodec';
import { computeReport } from '../../src/core/report/report';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';

const WORKER = resolve('dist/indexWorker.js');

/** Everything an index holds and says, as plain data (typed columns as arrays, maps in their order). */
function state(idx: CreditIndex): unknown {
  const cols: Record<string, number[]> = {};
  for (const [k, c] of Object.entries(idx.columns) as [keyof Columns, Float64Array][]) cols[k] = [...c.subarray(0, idx.size)];
  return {
    size: idx.size,
    cols,
    skipped: idx.skippedLines,
    skippedCount: idx.skippedCount,
    bytesIndexed: idx.bytesIndexed,
    pendingTail: idx.pendingTail,
    slowPathRows: idx.slowPathRows,
    observer: observerToJson(idx.observer),
    schema: idx.schemaCheck(),
    report: computeReport(idx).report,
  };
}

async function open(path: string, threads?: ThreadOptions, maxLineBytes?: number): Promise<CreditIndex> {
  const idx = new CreditIndex(path, undefined, maxLineBytes ? { maxLineBytes } : undefined, threads ? { threads } : {});
  await idx.update();
  return idx;
}

const rec = (it: number, extra = '', turns = '[{"action": "wait()", "c": 0.25, "A_t": 0.5}]'): string =>
  `{"iteration": ${it}, "group": ${it % 3}, "rollout": ${it % 5}, "reward": ${(it % 7) / 7}, "A": ${(it % 11) / 3 - 1.5}${extra}, "turns": ${turns}}`;

/** Bad lines, CRLF, a BOM, blank lines, multi-byte text, wrong types, the slow path, 300 unknown keys, an over-long line, a tail without newline. */
function hostileLog(): { path: string; text: Buffer; marks: Record<string, number> } {
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    if (i % 17 === 3) lines.push('{"iteration": 1, "group": 0,');
    else if (i % 19 === 4) lines.push('not json at all');
    else if (i % 23 === 5) lines.push('');
    else if (i % 13 === 6) lines.push(rec(i, `, "masked_typo": 1, "note": "ünïcödé ✓ 日本語 ${i}"`));
    else if (i % 11 === 7) lines.push(rec(i, `, "labeled": "yes", "slow_${i}": 1`));
    else if (i % 29 === 8)
      lines.push(rec(i, `, "\\u0074ask_id": "escaped key: slow path", "slow_esc_${i}": 1`, `[{"action": "a", "slow_turn_${i}": 2}]`));
    else if (i % 31 === 9) lines.push(`[${i}]`);
    else if (i % 37 === 10) lines.push(rec(i, `, "pad": "${'x'.repeat(700)}"`));
    else
      lines.push(
        rec(i, `, "extra_${i % 300}": ${i}, "t": "é"`, `[{"action": "click(${i})", "mystery_${i % 250}": true, "c": ${i / 1000}}]`),
      );
  }
  // every unknown key once more near the end, and a few new ones past the cap of 200
  for (let i = 0; i < 320; i++) lines.push(rec(1000 + i, `, "late_${i}": 1`));
  const body = lines.map((l, i) => (i % 5 === 2 ? `${l}\r\n` : `${l}\n`)).join('');
  const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body, 'utf8'), Buffer.from(rec(9999).slice(0, 40), 'utf8')]);
  const path = join(tempDir(), 'ws_credit_log.jsonl');
  writeFileSync(path, text);
  // a line start, the middle of a multi-byte character, and two places inside one long line
  const lineStart = text.indexOf('\n', 5000) + 1;
  const multibyte = text.indexOf(Buffer.from('日', 'utf8'), 9000) + 1;
  const long = text.indexOf(Buffer.from('"pad"', 'utf8'), 12000);
  return { path, text, marks: { lineStart, multibyte, longA: long + 10, longB: long + 400 } };
}

test('the worker bundle is built (node esbuild.mjs builds dist/indexWorker.js)', () => {
  assert.ok(existsSync(WORKER), WORKER);
});

test('the demo log: 1, 2 and 3 threads give the same index, skipped lines, schema and report', async () => {
  const dir = tempDir();
  const { creditLog } = writeDemo(dir, { hubRepo: false });
  const one = await open(creditLog);
  assert.equal(one.threadedParts, 0);
  for (const threads of [2, 3]) {
    const idx = await open(creditLog, { threads, minBytes: 0, workerPath: WORKER });
    assert.equal(idx.threadError, undefined);
    assert.equal(idx.threadsUsed, threads, `${threads} threads`);
    assert.ok(idx.threadedParts >= threads, `${threads} threads, ${idx.threadedParts} parts`);
    assert.deepStrictEqual(state(idx), state(one), `${threads} threads`);
  }
});

test('a threaded read says where its CPU time went: each worker, and the main thread before and after them (on Linux)', async () => {
  const { path } = hostileLog();
  const idx = await open(path, { threads: 3, minBytes: 0, workerPath: WORKER }, 600);
  const t = idx.threadTiming;
  if (process.platform !== 'linux') return assert.equal(t, undefined);
  assert.ok(t, 'timing measured');
  assert.equal(t.workers.length, idx.threadsUsed);
  assert.equal(
    t.partsPerThread.reduce((a, b) => a + b, 0),
    idx.threadedParts,
  );
  for (const w of t.workers) assert.ok(w.cpuMs > 0 && w.waitMs >= 0, JSON.stringify(w));
  assert.ok(t.beforeMs >= 0 && t.mergeMs >= 0 && t.workersWallMs > 0, JSON.stringify(t));
});

test('a hostile log cut at a line start, inside a multi-byte character, and twice inside one line (an empty part)', async () => {
  const { path, marks } = hostileLog();
  const one = await open(path, undefined, 600);
  const s = state(one) as { skippedCount: number; schema: { unknownTrajectoryKeys: unknown[] } };
  assert.ok(s.skippedCount > 40, 'the fixture has bad lines');
  assert.ok(one.slowPathRows > 0, 'the fixture takes the slow path');
  assert.equal(s.schema.unknownTrajectoryKeys.length, 200, 'the fixture meets more unknown keys than the cap');
  assert.equal(one.pendingTail, true);
  const cuts: [string, number[]][] = [
    ['at a line start', [marks.lineStart!]],
    ['inside a multi-byte character', [marks.multibyte!]],
    ['twice inside one line', [marks.longA!, marks.longB!]],
    ['all of them, and at 0 and past the end', [0, marks.lineStart!, marks.multibyte!, marks.longA!, marks.longB!, 1e9]],
    ['evenly, in 3', []],
  ];
  for (const [name, cutNear] of cuts) {
    const threads: ThreadOptions = { threads: 3, minBytes: 0, workerPath: WORKER, ...(cutNear.length > 0 ? { cutNear } : {}) };
    const idx = await open(path, threads, 600);
    assert.equal(idx.threadError, undefined, name);
    assert.ok(idx.threadedParts >= 2, `${name}: threaded`);
    assert.deepStrictEqual(state(idx), s, name);
  }
});

test('a log below the size floor stays on one thread; a missing worker falls back to one thread and says why', async () => {
  const { path } = hostileLog();
  const small = await open(path, { threads: 3, workerPath: WORKER });
  assert.equal(small.threadedParts, 0);
  const missing = await open(path, { threads: 2, minBytes: 0, workerPath: join(tempDir(), 'nope.js') });
  assert.equal(missing.threadedParts, 0);
  assert.match(missing.threadError ?? '', /nope\.js|Cannot find/);
  assert.deepStrictEqual(state(missing), state(await open(path)));
});

test('a cancelled threaded read rejects, and the next update indexes with threads again, to the same result', async () => {
  const { path } = hostileLog();
  const idx = new CreditIndex(path, undefined, { maxLineBytes: 600 }, { threads: { threads: 2, minBytes: 0, workerPath: WORKER } });
  const ac = new AbortController();
  const first = idx.update(ac.signal);
  ac.abort();
  await assert.rejects(first);
  assert.equal(idx.size, 0);
  await idx.update();
  assert.equal(idx.threadsUsed, 2);
  assert.deepStrictEqual(state(idx), state(await open(path, undefined, 600)));
});

test('the guided cut: long parts first, short ones last, none under the floor but the last, covering the file', () => {
  const end = 401_000_000;
  const targets = guidedTargets(end, 2);
  const sizes = [...targets, end].map((t, i) => t - (targets[i - 1] ?? 0));
  assert.ok(sizes.length > 2 * 2, `${sizes.length} parts for 2 threads`);
  assert.equal(sizes[0], Math.ceil(end / 4), 'the first part is half of an even share');
  for (let i = 1; i < sizes.length - 1; i++) {
    assert.ok(sizes[i]! <= sizes[i - 1]!, `part ${i} no longer than the one before`);
    assert.ok(sizes[i]! >= MIN_PART_BYTES, `part ${i} not under the floor`);
  }
  assert.ok(sizes.at(-1)! <= MIN_PART_BYTES, 'the last part is short');
  // a small file: parts of at least a quarter of an even share
  const small = guidedTargets(1000, 2);
  assert.ok(small.length >= 3 && small.every((t, i) => t - (small[i - 1] ?? 0) >= 125), small.join(','));
});

test('more parts than threads: each thread takes the next part as it finishes one, to the same index as one thread', async () => {
  const { path, text } = hostileLog();
  const cutNear = Array.from({ length: 11 }, (_, i) => Math.floor(((i + 1) * text.length) / 12));
  const idx = await open(path, { threads: 2, minBytes: 0, workerPath: WORKER, cutNear }, 600);
  assert.equal(idx.threadError, undefined);
  assert.equal(idx.threadsUsed, 2);
  assert.equal(idx.threadedParts, 12);
  const t = idx.threadTiming;
  if (t) {
    assert.equal(t.partsPerThread.length, 2);
    assert.equal(
      t.partsPerThread.reduce((a, b) => a + b, 0),
      12,
    );
    assert.ok(
      t.partsPerThread.every((n) => n >= 1),
      t.partsPerThread.join(','),
    );
  }
  assert.deepStrictEqual(state(idx), state(await open(path, undefined, 600)));
});

test('two threads are the calling thread and one worker: both read parts, to the same index as one thread', async () => {
  const { path, text } = hostileLog();
  const dir = tempDir();
  // a worker that counts the parts it answers, in a file
  const counting = join(dir, 'countingWorker.js');
  const answered = join(dir, 'answered');
  writeFileSync(
    counting,
    `const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
const send = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (m, ...rest) => {
  fs.appendFileSync(${JSON.stringify(answered)}, 'x');
  send(m, ...rest);
};
require(${JSON.stringify(WORKER)});`,
  );
  const cutNear = Array.from({ length: 11 }, (_, i) => Math.floor(((i + 1) * text.length) / 12));
  const idx = await open(path, { threads: 2, minBytes: 0, workerPath: counting, cutNear }, 600);
  assert.equal(idx.threadError, undefined);
  assert.equal(idx.threadsUsed, 2);
  assert.equal(idx.threadedParts, 12);
  const byWorker = existsSync(answered) ? readFileSync(answered, 'utf8').length : 0;
  assert.ok(byWorker < 12, `the worker read ${byWorker} of 12 parts: the calling thread read the rest`);
  const t = idx.threadTiming;
  if (t) assert.deepStrictEqual([t.partsPerThread.length, t.partsPerThread[1]], [2, byWorker]);
  assert.deepStrictEqual(state(idx), state(await open(path, undefined, 600)));
});

test('a worker on a slow core takes fewer parts: the others take the rest, and the index is the same', async () => {
  const { path, text } = hostileLog();
  const dir = tempDir();
  // the first of the two workers to start holds its answer until the other has answered 10 parts (a core
  // far busier than the other), whatever the machine's load: the split is decided by finishing order alone
  const slowWorker = join(dir, 'slowWorker.js');
  const answered = join(dir, 'answered');
  writeFileSync(
    slowWorker,
    `const fs = require('node:fs');
let slow = false;
try { fs.writeFileSync(${JSON.stringify(join(dir, 'slow'))}, 'slow', { flag: 'wx' }); slow = true; } catch {}
const { parentPort } = require('node:worker_threads');
const send = parentPort.postMessage.bind(parentPort);
const count = () => { try { return fs.readFileSync(${JSON.stringify(answered)}, 'utf8').length; } catch { return 0; } };
const held = (m, rest, t0) =>
  count() >= 10 || Date.now() - t0 > 20000 ? send(m, ...rest) : setTimeout(() => held(m, rest, t0), 10);
parentPort.postMessage = (m, ...rest) => {
  if (slow) return held(m, rest, Date.now());
  send(m, ...rest);
  fs.appendFileSync(${JSON.stringify(answered)}, 'x');
};
require(${JSON.stringify(WORKER)});`,
  );
  const cutNear = Array.from({ length: 11 }, (_, i) => Math.floor(((i + 1) * text.length) / 12));
  const idx = await open(path, { threads: 2, minBytes: 0, workerPath: slowWorker, cutNear, mainThreadReads: false }, 600);
  assert.equal(idx.threadError, undefined);
  assert.equal(idx.threadedParts, 12);
  const t = idx.threadTiming;
  if (t) {
    const [a = 0, b = 0] = t.partsPerThread;
    assert.equal(a + b, 12);
    assert.ok(Math.min(a, b) <= 2 && Math.max(a, b) >= 10, `parts per worker ${a} and ${b}`);
  }
  assert.deepStrictEqual(state(idx), state(await open(path, undefined, 600)));
});

test('the default thread count: every core the load average leaves free, one at least', () => {
  assert.equal(autoThreads(2, 0.1), 2, 'a quiet machine: both cores');
  assert.equal(autoThreads(2, 0.6), 2, 'a core 60% busy still counts as free');
  assert.equal(autoThreads(2, 1), 1, 'a core kept busy: one thread');
  assert.equal(autoThreads(2, 12), 1, 'a crowded machine: one thread, never none');
  assert.equal(autoThreads(8, 2.2), 6);
  assert.equal(autoThreads(4, 0), 4, 'never more than the cores');
});

test("the others' load: the machine's busy CPU over the span less this process's own; too short or too long a span says nothing", () => {
  const at = (ms: number, machineMs: number, ownMs: number): { at: number; machineMs: number; ownMs: number } => ({
    at: ms,
    machineMs,
    ownMs,
  });
  // over 200 ms: the machine busy for 300 ms of CPU, 100 of them this process's: one other core busy
  assert.equal(othersBusy(at(0, 1000, 50), at(200, 1300, 150)), 1);
  // this process's own work alone: nobody else is busy (a tick's rounding never goes below none)
  assert.equal(othersBusy(at(0, 1000, 0), at(200, 1190, 200)), 0);
  assert.equal(othersBusy(at(0, 0, 0), at(40, 80, 0)), undefined, 'under 100 ms the 10 ms ticks say too little');
  assert.equal(othersBusy(at(0, 0, 0), at(60_000, 0, 0)), undefined, 'a minute is not "now"');
  // a load average of 1.5 left by work that ended: the others' load now says both cores are free
  assert.equal(autoThreads(2, othersBusy(at(0, 0, 0), at(150, 40, 30))!), 2);
});

test("a run's first update starts the credit log's worker threads before it parses its other logs, and gives the report one thread gives", async () => {
  const dir = tempDir();
  writeDemo(dir, { trajectories: 600, hubRepo: false, baseline: false });
  const one = (await Run.open(dir))!;
  await one.update();
  let episodesAtStart: number | undefined;
  const threads: ThreadOptions = {
    threads: 2,
    minBytes: 0,
    workerPath: WORKER,
    onStarted: () => (episodesAtStart = run.evals!.episodes.length),
  };
  const run = (await Run.open(dir, DEFAULT_INDEX_OPTIONS, { threads }))!;
  await run.update();
  assert.equal(episodesAtStart, 0, 'no evaluation episode was read before the workers started');
  assert.equal(run.credit!.threadedParts > 1, true, run.credit!.threadError);
  assert.ok(run.evals!.episodes.length > 0);
  assert.deepEqual(run.report(), one.report());
});
