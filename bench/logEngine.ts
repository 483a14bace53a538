/**
 * The log engine on a generated 1 GB credit log, three readers of the same file in one
 * process: a bare newline scan, a naive readline + JSON.parse loop, and the indexer; then
 * the indexer with the behaviour tags of section 7 against the indexer without them
 * (finely interleaved, `bench/tagCost.ts`, then `RLRB_BENCH_ROUNDS` whole-file rounds, default 3, in
 * alternating order; target within 10%).
 */
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { writeDemo } from '../src/core/demo/demo';
import { CreditIndex } from '../src/core/log/creditIndex';
import { queryRows, page } from '../src/core/run/query';
import { recordResults, mbps, peakRssMb } from './common';
import { interleavedTagCost } from './tagCost';

const TARGET_BYTES = Number(process.env['RLRB_BENCH_BYTES'] ?? 1e9);
const dir = join('bench', 'data', `log-${TARGET_BYTES}`);
const log = join(dir, 'logs', 'ws_credit_log.jsonl');

async function newlineScan(path: string): Promise<number> {
  const fh = await open(path, 'r');
  const buf = Buffer.allocUnsafe(4 << 20);
  let n = 0;
  let pos = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    let i = -1;
    while ((i = buf.indexOf(10, i + 1)) >= 0 && i < bytesRead) n++;
  }
  await fh.close();
  return n;
}

async function naive(path: string): Promise<number> {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    if (line.length === 0) continue;
    const o = JSON.parse(line) as { turns?: unknown[] };
    if (o.turns) n++;
  }
  return n;
}

async function main(): Promise<void> {
  if (!existsSync(log) || statSync(log).size < TARGET_BYTES * 0.95) {
    mkdirSync(dir, { recursive: true });
    console.log(`generating a ${(TARGET_BYTES / 1e9).toFixed(2)} GB credit log in ${dir} ...`);
    // about 2.1 KB a trajectory on average
    writeDemo(dir, { trajectories: Math.ceil(TARGET_BYTES / 2130), hubRepo: false, baseline: false });
  }
  const size = statSync(log).size;
  const baseRss = peakRssMb();

  let t = performance.now();
  const lines = await newlineScan(log);
  const scanMs = performance.now() - t;

  // the indexer, with the time to the first page of 100 while indexing goes on
  const idx = new CreditIndex(log);
  let firstPageMs = -1;
  t = performance.now();
  const sub = idx.onDidChange(() => {
    if (firstPageMs < 0 && idx.size >= 100) {
      const rows = queryRows(idx, { filter: {}, sort: [] });
      if (page(idx, rows, 0, 100).length === 100) firstPageMs = performance.now() - t;
    }
  });
  await idx.update();
  const indexMs = performance.now() - t;
  sub.dispose();
  const indexRss = peakRssMb();

  // one trajectory by offset
  const times: number[] = [];
  for (let k = 0; k < 200; k++) {
    const row = Math.floor((((k * 7919) % 1000) / 1000) * idx.size);
    const s = performance.now();
    await idx.read(row);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);

  t = performance.now();
  const naiveCount = await naive(log);
  const naiveMs = performance.now() - t;

  if (naiveCount !== idx.size || lines !== idx.size)
    throw new Error(`readers disagree: ${lines} lines, naive ${naiveCount}, index ${idx.size}`);
  const fine = await interleavedTagCost(log, join(dir, 'growing.jsonl'));
  const tagCost = await behaviourCost();
  const s = mbps(size, scanMs),
    nv = mbps(size, naiveMs),
    ix = mbps(size, indexMs);
  recordResults('log engine', [
    `file: ${(size / 1e9).toFixed(2)} GB, ${idx.size} trajectories`,
    '',
    '| reader | MB/s | indexer / it |',
    '|---|---|---|',
    `| newline scan (the limit) | ${s.toFixed(0)} | ${(ix / s).toFixed(2)} |`,
    `| naive readline + JSON.parse | ${nv.toFixed(0)} | ${(ix / nv).toFixed(2)} (target >= 2) |`,
    `| indexer | ${ix.toFixed(0)} | 1.00 |`,
    '',
    `- first page of 100 while indexing: ${firstPageMs.toFixed(1)} ms (target < 300)`,
    `- one trajectory by offset: median ${times[100]!.toFixed(2)} ms, max ${times[199]!.toFixed(2)} ms (target < 20)`,
    `- peak RSS after indexing: ${indexRss.toFixed(0)} MB (process baseline ${baseRss.toFixed(0)} MB; target < 300)`,
    `- index holds ${((idx.size * 110) / 1e6).toFixed(0)} MB of columns (about 110 bytes a trajectory)`,
    `- behaviour tags (section 7), finely interleaved (${fine.slices} slices of about 16 MB, each read by both indexes in turn): with them ${fine.withMs.toFixed(
      0,
    )} ms, without ${fine.withoutMs.toFixed(0)} ms: **${fine.ratio.toFixed(3)}x** (target <= 1.10); CPU ${fine.cpuRatio.toFixed(
      3,
    )}x; the slices' median ratio ${fine.sliceMedian.toFixed(3)}x`,
    `- the same, whole-file rounds in alternating order: indexing with them ${tagCost.withMs.map((m) => m.toFixed(0)).join(', ')} ms, without ${tagCost.withoutMs
      .map((m) => m.toFixed(0))
      .join(
        ', ',
      )} ms; median ratio ${tagCost.ratio.toFixed(3)}x (target <= 1.10), total ratio ${tagCost.total.toFixed(3)}x; CPU ${tagCost.withCpu
      .map((m) => m.toFixed(0))
      .join(
        ', ',
      )} against ${tagCost.withoutCpu.map((m) => m.toFixed(0)).join(', ')} ms, median ratio ${tagCost.cpuRatio.toFixed(3)}x (load ${loadavg()[0]!.toFixed(1)})`,
  ]);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface TagCost {
  withMs: number[];
  withoutMs: number[];
  ratio: number;
  total: number;
  /** the same, in CPU time of the process (less moved by other work on a loaded machine) */
  withCpu: number[];
  withoutCpu: number[];
  cpuRatio: number;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One thread, the same file, with and without the tags, rounds in alternating order. */
async function behaviourCost(): Promise<TagCost> {
  const rounds = Number(process.env['RLRB_BENCH_ROUNDS'] ?? 3);
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  const withCpu: number[] = [];
  const withoutCpu: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const tags of r % 2 === 0 ? [false, true] : [true, false]) {
      (globalThis as { gc?: () => void }).gc?.();
      const t0 = performance.now();
      const c0 = cpuMs();
      const x = new CreditIndex(log, undefined, undefined, tags ? {} : { noBehaviour: true });
      await x.update();
      (tags ? withMs : withoutMs).push(performance.now() - t0);
      (tags ? withCpu : withoutCpu).push(cpuMs() - c0);
    }
  }
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    withMs,
    withoutMs,
    ratio: median(withMs) / median(withoutMs),
    total: sum(withMs) / sum(withoutMs),
    withCpu,
    withoutCpu,
    cpuRatio: median(withCpu) / median(withoutCpu),
  };
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
