/**
 * Indexing a generated 1 GB credit log (in a temp folder, deleted after; written to disk
 * and read once before any round, so that every round reads it from the page cache): one
 * thread against every core, twice each, interleaved in alternating order, with the
 * figures compared whole; then the first open with a store (index + save) against the
 * second open of the unchanged log (from the saved index). Every ratio is of figures
 * measured in this run; the load average is printed next to them (the machine is shared).
 * Next to the wall times, the CPU time of the main thread and of each worker (Linux), the
 * load-independent figures: the serial fraction and the speedup Amdahl's law allows. The
 * thread figure is the median of the rounds (five by default) against the median, with what
 * varies from round to round next to it (see `roundLines`).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeDemo } from '../src/core/demo/demo';
import { CreditIndex } from '../src/core/log/creditIndex';
import type { IndexEngine } from '../src/core/log/creditIndex';
import { IndexStore } from '../src/core/log/indexStore';
import { observerToJson } from '../src/core/log/observerCodec';
import { computeReport } from '../src/core/report/report';
import { threadCpu } from '../src/core/log/threads/cpu';
import { amdahl, recordResults, coreSpeedShared, mbps } from './common';

const TARGET_BYTES = Number(process.env['RLRB_BENCH_BYTES'] ?? 1e9);
const WORKER = resolve('dist/indexWorker.js');
const THREADS = availableParallelism();
/** rounds of (one thread, every core), interleaved (default 5: the thread figure is their median) */
const ROUNDS = Number(process.env['RLRB_BENCH_ROUNDS'] ?? 5);
/** `RLRB_BENCH_THREADS_ONLY=1`: the thread rounds alone (no store, no CLI), e.g. a quiet-machine rerun of the thread figure */
const THREADS_ONLY = process.env['RLRB_BENCH_THREADS_ONLY'] === '1';

interface Open {
  ms: number;
  idx: CreditIndex;
  /** CPU ms the main thread ran during the open, and waited for a core (NaN where the system does not say) */
  mainMs: number;
  mainWaitMs: number;
  /** CPU ms of the whole process during the open: every thread, the GC's and compiler's helpers and the file reads included */
  processMs: number;
}

async function timedOpen(log: string, engine: IndexEngine): Promise<Open> {
  const c0 = threadCpu();
  const p0 = process.cpuUsage();
  const t = performance.now();
  const idx = new CreditIndex(log, undefined, undefined, engine);
  await idx.update();
  const ms = performance.now() - t;
  const c1 = threadCpu();
  const p1 = process.cpuUsage(p0);
  const mainMs = c0 && c1 ? c1.cpuMs - c0.cpuMs : NaN;
  return {
    ms,
    idx,
    mainMs,
    mainWaitMs: c0 && c1 ? c1.waitMs - c0.waitMs : NaN,
    processMs: (p1.user + p1.system) / 1000,
  };
}

/** Writes the file to disk and reads it once, so that no round pays for the write-back or a cold page cache. */
function settle(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
    const buf = Buffer.allocUnsafe(4 << 20);
    for (let at = 0, n = 1; n > 0; at += n) n = readSync(fd, buf, 0, buf.length, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * The CPU figures of the threaded opens against the one-thread ones: what the main thread
 * ran is counted serial (cutting the file, waiting on the workers, the merge, the tail),
 * the workers' CPU parallel; the speedup on `THREADS` cores that the CPU times allow
 * (the one-thread CPU over the longest path: main thread plus the slowest worker) and
 * the one Amdahl's law allows from the serial fraction alone.
 */
function cpuLines(one: Open[], many: Open[]): string[] {
  const best = <T>(r: T[], f: (x: T) => number): T => r.reduce((a, b) => (f(b) < f(a) ? b : a));
  const path = (m: Open): number => m.mainMs + Math.max(...(m.idx.threadTiming?.workers ?? []).map((w) => w.cpuMs));
  const o = best(one, (x) => x.mainMs);
  const m = best(many, path);
  const t = m.idx.threadTiming;
  if (!t || t.workers.length === 0 || Number.isNaN(o.mainMs))
    return ['CPU times: not measured (this system does not give a thread its CPU time)'];
  const workers = t.workers.reduce((n, w) => n + w.cpuMs, 0);
  const serial = m.mainMs / (m.mainMs + workers);
  const f = (x: number): string => x.toFixed(0);
  return [
    `CPU, one thread (best of ${one.length}): ${f(o.mainMs)} ms (it waited ${f(o.mainWaitMs)} ms for a core); the whole process ${f(o.processMs)} ms`,
    `CPU, ${THREADS} worker threads (best of ${many.length}): main thread ${f(m.mainMs)} ms (cutting ${t.beforeMs.toFixed(1)} ms, merge ${t.mergeMs.toFixed(1)} ms), workers ${t.workers.map((w) => `${f(w.cpuMs)} ms (waited ${f(w.waitMs)} ms)`).join(', ')}; ${(((m.mainMs + workers) / o.mainMs - 1) * 100).toFixed(1)}% more CPU than one thread in all; the whole process ${f(m.processMs)} ms (the workers, their start and V8's helper threads included)`,
    `serial fraction ${(serial * 100).toFixed(2)}% of the threaded CPU: Amdahl's law allows ${amdahl(serial, THREADS).toFixed(2)}x on ${THREADS} cores; one-thread CPU over the threaded longest path (main + slowest worker): ${(o.mainMs / path(m)).toFixed(2)}x (what the work allows on cores that share nothing; target >= 1.6x)`,
  ];
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * The thread figure: the median of the one-thread opens against the median of the threaded
 * ones (target 1.5x), each round's own ratio (its two opens ran one after the other), and per
 * threaded round what may vary: the workers' wall time against the slowest worker's CPU (the
 * rest is the fork and the wait for a core), each worker's CPU and the parts it took (each
 * takes the next part as it finishes one, so unequal CPU is the last part's length, or a
 * core's speed), their waits for a core (the machine's load) and the merge.
 */
function roundLines(one: Open[], many: Open[]): string[] {
  const f = (x: number): string => x.toFixed(0);
  const ratio = median(one.map((o) => o.ms)) / median(many.map((m) => m.ms));
  const paired = one.map((o, i) => o.ms / many[i]!.ms);
  const lines = [
    `median of ${one.length}: one thread ${f(median(one.map((o) => o.ms)))} ms, ${THREADS} worker threads ${f(median(many.map((m) => m.ms)))} ms: ` +
      `${ratio.toFixed(2)}x one thread (target >= 1.5x at the median: ${ratio >= 1.5 ? 'PASS' : 'FAIL'}); each round's own ratio ${paired.map((r) => `${r.toFixed(2)}x`).join(', ')} (median ${median(paired).toFixed(2)}x)`,
    `what varies, per threaded round (workers' wall; each worker's CPU, its wait for a core and the parts it took, of ${many[0]?.idx.threadedParts ?? 0}; the slowest worker's CPU over the fastest's; merge on the main thread):`,
  ];
  many.forEach((m, i) => {
    const t = m.idx.threadTiming;
    if (!t) return;
    const cpus = t.workers.map((w) => w.cpuMs);
    lines.push(
      `  round ${i + 1}: ${f(m.ms)} ms in all, workers ${f(t.workersWallMs)} ms wall; workers ${t.workers.map((w, k) => `${f(w.cpuMs)} ms CPU (waited ${f(w.waitMs)}, ${t.partsPerThread[k] ?? 0} parts)`).join(', ')}; ` +
        `imbalance ${(Math.max(...cpus) / Math.min(...cpus)).toFixed(2)}; merge ${t.mergeMs.toFixed(1)} ms; one thread that round ${f(one[i]!.ms)} ms (waited ${f(one[i]!.mainWaitMs)})`,
    );
  });
  return lines;
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

const CLI = resolve('dist/cli.js');

/** Wall ms of `rlrb ...args` with its saved indexes in `cache`; it must exit 0. */
function timedCli(cache: string, ...args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, XDG_CACHE_HOME: cache }, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`rlrb ${args.join(' ')}: exit ${r.status}: ${r.stderr.toString().slice(0, 300)}`);
  return performance.now() - t0;
}

/** Best of `n` wall times of `rlrb ...args`. */
function bestCli(n: number, cache: string, ...args: string[]): number {
  return Math.min(...Array.from({ length: n }, () => timedCli(cache, ...args)));
}

/**
 * The CLI, as a user runs it, on the run folder (credit, metrics and evaluation logs): a first and a
 * second `rlrb report`, `compare` (the run with itself), `tags` and `evals`, each second open (best of
 * three, from the kept figures: no log is read) against the CLI's start (`rlrb --version`, best of
 * three, measured between them). Targets: 2x the start, 3x for a comparison (issue 28).
 */
function cliSecondOpens(run: string): string[] {
  const cache = mkdtempSync(join(tmpdir(), 'rlrb-bench-cli-cache-'));
  try {
    const lines: string[] = [];
    const start: number[] = [];
    const commands: [string, string[], number][] = [
      ['report', ['report', run, '--json'], 2],
      ['compare', ['compare', run, run, '--json'], 3],
      ['tags', ['tags', run, '--json'], 2],
      ['evals', ['evals', run, '--json'], 2],
    ];
    const seconds: [string, number, number, number][] = [];
    for (const [name, args, target] of commands) {
      start.push(bestCli(3, cache, '--version'));
      const first = timedCli(cache, ...args);
      seconds.push([name, first, bestCli(3, cache, ...args), target]);
    }
    start.push(bestCli(3, cache, '--version'));
    const s = Math.min(...start);
    lines.push(`rlrb --version (the CLI's start), best of ${start.length * 3} taken between the commands: ${s.toFixed(0)} ms`);
    for (const [name, first, second, target] of seconds)
      lines.push(
        `rlrb ${name}: first (index + save + figures kept) ${first.toFixed(0)} ms; second (kept figures, best of 3) ${second.toFixed(0)} ms = ` +
          `${(second / s).toFixed(2)}x the CLI's start (target <= ${target}x), ${(first / second).toFixed(1)}x faster than the first`,
      );
    return lines;
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
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
    settle(log);
    const loadStart = load();
    const shared = process.platform === 'linux' ? await coreSpeedShared(THREADS) : NaN;
    const threaded: IndexEngine = { threads: { threads: THREADS, workerPath: WORKER } };
    const one: Open[] = [];
    const many: Open[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // one thread first, then every core first: neither gains from going second
      if (r % 2 === 1) many.push(await timedOpen(log, threaded));
      one.push(await timedOpen(log, {}));
      if (r % 2 === 0) many.push(await timedOpen(log, threaded));
    }
    const best = (r: { ms: number }[]): number => Math.min(...r.map((x) => x.ms));
    if (many.some((m) => m.idx.threadsUsed !== THREADS))
      throw new Error(`the threaded open did not use ${THREADS} worker threads (${many[0]!.idx.threadError})`);
    const same = many.every((m) => sameFigures(m.idx, one[0]!.idx));
    if (!same) throw new Error('the threaded index differs from the one-thread index');
    const loadThreads = load();
    const ms = (r: { ms: number }[]): string => r.map((x) => `${x.ms.toFixed(0)} ms`).join(', ');
    const threadLines = [
      `log: ${(size / 1e6).toFixed(0)} MB, ${one[0]!.idx.size} trajectories; load average (1, 5, 15 min) ${loadStart} at the start, ${loadThreads} after the thread rounds`,
      `one thread: ${ms(one)} (best ${mbps(size, best(one)).toFixed(0)} MB/s)`,
      `${THREADS} worker threads: ${ms(many)} (best ${mbps(size, best(many)).toFixed(0)} MB/s); ${(best(one) / best(many)).toFixed(2)}x one thread, best against best`,
      ...roundLines(one, many),
      ...cpuLines(one, many),
      `a core's parsing speed while all ${THREADS} parse, against alone (JSON.parse in workers, CPU time): ${shared.toFixed(2)}; the most ${THREADS} threads can give on this hardware: ${(shared * THREADS).toFixed(2)}x (1 and ${THREADS}x for cores that share nothing; it means something only on a quiet machine)`,
      `same figures (every column byte for byte, skipped lines, schema, report): ${same}`,
    ];
    if (THREADS_ONLY) {
      recordResults('index cache and threads', [
        ...threadLines,
        `load average at the end ${load()}; RLRB_BENCH_THREADS_ONLY=1: no store, no CLI figures`,
      ]);
      return;
    }

    const cache = mkdtempSync(join(tmpdir(), 'rlrb-bench-cache-'));
    const store = new IndexStore(cache);
    try {
      const first = await timedOpen(log, { store, ...threaded });
      const second = await timedOpen(log, { store, ...threaded });
      if (second.idx.cacheUse !== 'unchanged') throw new Error(`the second open did not use the saved index (${second.idx.cacheUse})`);
      const sameSaved = sameFigures(second.idx, one[0]!.idx);
      if (!sameSaved) throw new Error('the index from the saved index differs from a fresh one');
      const saved = statSync(join(cache, store.nameOf('credit', log, first.idx.options))).size;
      recordResults('index cache and threads', [
        ...threadLines,
        `first open with a store (${THREADS} worker threads + save): ${first.ms.toFixed(0)} ms; saved index ${(saved / 1e6).toFixed(1)} MB`,
        `second open (unchanged, from the saved index): ${second.ms.toFixed(1)} ms; ${(first.ms / second.ms).toFixed(1)}x faster than the first (target >= 20x and < 300 ms); same figures: ${sameSaved}`,
        ...cliSecondOpens(dir),
        `load average at the end ${load()}`,
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
