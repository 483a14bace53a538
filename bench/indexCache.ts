/**
 * The saved index on a generated credit log: the first open (indexing from byte 0 and
 * saving), the second open of the unchanged log (from the saved index), and an open
 * without a store, in one run; the ratio is of figures measured here.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { writeDemo } from '../src/core/demo/demo';
import { CreditIndex } from '../src/core/log/creditIndex';
import { IndexStore } from '../src/core/log/indexStore';
import { computeReport } from '../src/core/report/report';
import { appendResults, mbps } from './common';

const TARGET_BYTES = Number(process.env['RLRB_BENCH_BYTES'] ?? 1e9);
const dir = join('bench', 'data', `log-${TARGET_BYTES}`);
const log = join(dir, 'logs', 'ws_credit_log.jsonl');

async function timedOpen(store: IndexStore | undefined): Promise<{ ms: number; idx: CreditIndex }> {
  const t = performance.now();
  const idx = new CreditIndex(log, undefined, undefined, { store });
  await idx.update();
  return { ms: performance.now() - t, idx };
}

async function main(): Promise<void> {
  if (!existsSync(log) || statSync(log).size < TARGET_BYTES * 0.95) {
    mkdirSync(dir, { recursive: true });
    console.log(`generating a ${(TARGET_BYTES / 1e9).toFixed(2)} GB credit log in ${dir} ...`);
    writeDemo(dir, { trajectories: Math.ceil(TARGET_BYTES / 2130), hubRepo: false, baseline: false });
  }
  const size = statSync(log).size;
  const cache = mkdtempSync(join(tmpdir(), 'rlrb-bench-cache-'));
  const store = new IndexStore(cache);
  const load = loadavg()[0]!.toFixed(1);
  try {
    const plain = await timedOpen(undefined);
    const first = await timedOpen(store);
    const second = await timedOpen(store);
    if (second.idx.cacheUse !== 'unchanged') throw new Error(`the second open did not use the saved index (${second.idx.cacheUse})`);
    const same = JSON.stringify(computeReport(second.idx).report) === JSON.stringify(computeReport(plain.idx).report);
    if (!same) throw new Error('the report from the saved index differs from a fresh one');
    const saved = statSync(join(cache, store.nameOf('credit', log, first.idx.options))).size;
    appendResults('index cache', [
      `log: ${(size / 1e6).toFixed(0)} MB, ${plain.idx.size} trajectories; load average ${load} at the start`,
      `open without a store: ${plain.ms.toFixed(0)} ms (${mbps(size, plain.ms).toFixed(0)} MB/s)`,
      `first open (index + save): ${first.ms.toFixed(0)} ms; saved index ${(saved / 1e6).toFixed(1)} MB`,
      `second open (unchanged, from the saved index): ${second.ms.toFixed(1)} ms; ${(first.ms / second.ms).toFixed(1)}x faster than the first (target >= 20x and < 300 ms)`,
      `same report from the saved index: ${same}`,
      `threaded indexer: not measured (not built yet)`,
    ]);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
