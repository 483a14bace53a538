/**
 * Indexing a generated 1 GB credit log (in a temp folder, deleted after): one thread
 * against every core, twice each, interleaved, with the figures compared whole; then the
 * first open with a store (index + save) against the second open of the unchanged log
 * (from the saved index). Every ratio is of figures measured in this run; the load average
 * is printed next to them (the machine is shared).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeDemo } from '../src/core/demo/demo';
import { CreditIndex } from '../src/core/log/creditIndex';
import type { IndexEngine } from '../src/core/log/creditIndex';
import { IndexStore } from '../src/core/log/indexStore';
import { observerToJson } from '../src/core/log/observerCodec';
import { computeReport } from '../src/core/report/report';
import { appendResults, mbps } from './common';

const TARGET_BYTES = Number(process.env['RLRB_BENCH_BYTES'] ?? 1e9);
const WORKER = resolve('dist/indexWorker.js');
const THREADS = availableParallelism();
/** rounds of (one thread, every core), interleaved (default 2) */
const ROUNDS = Number(process.env['RLRB_BENCH_ROUNDS'] ?? 2);

async function timedOpen(log: string, engine: IndexEngine): Promise<{ ms: number; idx: CreditIndex }> {
  const t = performance.now();
  const idx = new CreditIndex(log, undefined, undefined, engine);
  await idx.update();
  return { ms: performance.now() - t, idx };
}

/** Every column byte for byte, skipped lines, schema observer (in order), schema check and report. */
function sameFigures(a: CreditIndex, b: CreditIndex): boolean {
  if (a.size !== b.size || a.skippedCount !== b.skippedCount || a.bytesIndexed !== b.bytesIndexed) return false;
  for (const [k, col] of Object.entries(a.columns) as [keyof CreditIndex['columns'], Float64Array][]) {
    const other = b.columns[k] as Float64Array;
    const bytes = (c: Float64Array): Buffer => Buffer.from(c.buffer, c.byteOffset, a.size * c.BYTES_PER_ELEMENT);
    if (!bytes(col).equals(bytes(other))) return false;
  }
  return (
    isDeepStrictEqual(a.skippedLines, b.skippedLines) &&
    isDeepStrictEqual(observerToJson(a.observer), observerToJson(b.observer)) &&
    isDeepStrictEqual(a.schemaCheck(), b.schemaCheck()) &&
    isDeepStrictEqual(computeReport(a).report, computeReport(b).report)
  );
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rlrb-bench-log-'));
  try {
    console.log(`generating a ${(TARGET_BYTES / 1e9).toFixed(2)} GB credit log in ${dir} ...`);
    const { creditLog: log } = writeDemo(dir, { trajectories: Math.ceil(TARGET_BYTES / 2130), hubRepo: false, baseline: false });
    // the bad lines, CRLF and unknown keys a real log has are in the unit tests; this is about speed
    const size = statSync(log).size;
    const loadStart = load();
    const threaded: IndexEngine = { threads: { threads: THREADS, workerPath: WORKER } };
    const one: { ms: number; idx: CreditIndex }[] = [];
    const many: { ms: number; idx: CreditIndex }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      one.push(await timedOpen(log, {}));
      many.push(await timedOpen(log, threaded));
    }
    const best = (r: { ms: number }[]): number => Math.min(...r.map((x) => x.ms));
    if (many.some((m) => m.idx.threadedParts !== THREADS))
      throw new Error(`the threaded open did not use ${THREADS} parts (${many[0]!.idx.threadError})`);
    const same = many.every((m) => sameFigures(m.idx, one[0]!.idx));
    if (!same) throw new Error('the threaded index differs from the one-thread index');
    const loadThreads = load();

    const cache = mkdtempSync(join(tmpdir(), 'rlrb-bench-cache-'));
    const store = new IndexStore(cache);
    try {
      const first = await timedOpen(log, { store, ...threaded });
      const second = await timedOpen(log, { store, ...threaded });
      if (second.idx.cacheUse !== 'unchanged') throw new Error(`the second open did not use the saved index (${second.idx.cacheUse})`);
      const sameSaved = sameFigures(second.idx, one[0]!.idx);
      if (!sameSaved) throw new Error('the index from the saved index differs from a fresh one');
      const saved = statSync(join(cache, store.nameOf('credit', log, first.idx.options))).size;
      const ms = (r: { ms: number }[]): string => r.map((x) => `${x.ms.toFixed(0)} ms`).join(', ');
      appendResults('index cache and threads', [
        `log: ${(size / 1e6).toFixed(0)} MB, ${one[0]!.idx.size} trajectories; load average (1, 5, 15 min) ${loadStart} at the start, ${loadThreads} after the thread rounds, ${load()} at the end`,
        `one thread: ${ms(one)} (best ${mbps(size, best(one)).toFixed(0)} MB/s)`,
        `${THREADS} threads: ${ms(many)} (best ${mbps(size, best(many)).toFixed(0)} MB/s); ${(best(one) / best(many)).toFixed(2)}x one thread, best against best (target >= 1.6x)`,
        `same figures (every column byte for byte, skipped lines, schema, report): ${same}`,
        `first open with a store (${THREADS} threads + save): ${first.ms.toFixed(0)} ms; saved index ${(saved / 1e6).toFixed(1)} MB`,
        `second open (unchanged, from the saved index): ${second.ms.toFixed(1)} ms; ${(first.ms / second.ms).toFixed(1)}x faster than the first (target >= 20x and < 300 ms); same figures: ${sameSaved}`,
      ]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
