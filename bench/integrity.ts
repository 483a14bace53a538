/**
 * What checking a run's Hub repo costs (docs/format.md section 9), against what finding out by
 * downloading would cost: a repo of 3 resume and 3 hf iterations on the local Hub emulator (in
 * this process, so both sides share its work alike). The resume iterations are the fixtures torch
 * wrote (test/fixtures/checkpoints/tree: 4 ranks, a `.metadata` of 8,580 bytes, one upload cut short)
 * with each shard file grown to SHARD_MB, which a `.metadata` allows (it names the least bytes a
 * file must hold); the hf iterations are BF16 safetensors of SHARD_MB a shard, one missing a shard.
 * The baseline, measured in the same run: the full download of the same 6 iterations, which is
 * what a user learns the same thing from without the check. Rounds alternate the two, best kept.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { recordResults } from './common';
import { startHubEmulator } from '../test/hubEmulator/server';
import type { HubEmulator } from '../test/hubEmulator/server';
import { checkHubRepo } from '../src/core/integrity/checkHub';
import { listRun } from '../src/core/hub/model';
import { planDownload, runDownload } from '../src/core/hub/download';
import { safetensorsBytes } from '../src/core/demo/checkpoints';

const REPO = 'bench/integrity';
const SHARD_MB = 8;
const ROUNDS = 3;
const FIXTURES = resolve('test/fixtures/checkpoints/tree');

/** The repo: the fixtures' resume iterations with grown shards, and big hf iterations (one missing a shard). */
function writeRepo(root: string): void {
  cpSync(join(FIXTURES, 'resume'), join(root, 'resume'), { recursive: true });
  for (const it of readdirSync(join(root, 'resume'))) {
    const d = join(root, 'resume', it);
    if (!statSync(d).isDirectory()) continue;
    for (const f of readdirSync(d)) {
      // the shard the cut upload left short stays short: that is what the check must find
      const short = it === 'iter_0000030' && f === '__1_0.distcp';
      if (f.endsWith('.distcp') && !short) truncateSync(join(d, f), SHARD_MB << 20);
    }
  }
  const side = Math.floor(Math.sqrt((SHARD_MB << 20) / 2 / 2));
  for (const n of [10, 20, 30]) {
    const d = join(root, 'hf', `iter_${String(n).padStart(7, '0')}`);
    mkdirSync(d, { recursive: true });
    const map: Record<string, string> = {};
    for (const s of [1, 2]) {
      const name = `model-0000${s}-of-00002.safetensors`;
      const tensors = [0, 1].map((k) => ({ name: `model.layers.${s}.w${k}`, shape: [side, side] }));
      for (const t of tensors) map[t.name] = name;
      // the interrupted upload of iteration 30: its second shard never arrived
      if (n === 30 && s === 2) continue;
      writeFileSync(
        join(d, name),
        safetensorsBytes(tensors, (k) => Buffer.alloc(k, 7)),
      );
    }
    writeFileSync(join(d, 'model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: map }));
  }
}

interface Cost {
  requests: number;
  bytes: number;
  ms: number;
}

async function measured(emu: HubEmulator, job: () => Promise<void>): Promise<Cost> {
  emu.requests.length = 0;
  const t0 = performance.now();
  await job();
  const ms = performance.now() - t0;
  return { requests: emu.requests.length, bytes: emu.requests.reduce((s, q) => s + q.bytes, 0), ms };
}

const kb = (b: number): string => `${(b / 1024).toFixed(1)} KB`;
const mb = (b: number): string => `${(b / 1e6).toFixed(1)} MB`;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'rlrb-bench-integrity-'));
  const root = join(work, 'repo');
  writeRepo(root);
  const emu = await startHubEmulator({ repos: { [REPO]: root } });
  const c = { endpoint: emu.url };
  let check: Cost | undefined;
  let full: Cost | undefined;
  // read whole by the check: the listing gives their sizes
  const metadataBytes = ['iter_0000010', 'iter_0000020', 'iter_0000030'].reduce(
    (s, d) => s + statSync(join(root, 'resume', d, '.metadata')).size,
    0,
  );
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const a = await measured(emu, async () => {
        const res = await checkHubRepo(REPO, 'main', c);
        if (res.report.latest.namesComplete || res.report.latest.lastComplete !== 20)
          throw new Error('the check did not find the cut upload');
      });
      const dest = join(work, `dl-${r}`);
      const b = await measured(emu, async () => {
        const listing = await listRun(REPO, 'main', c);
        // a folder each: one destination's latest file would refuse the next iteration
        for (const it of [...listing.resume, ...listing.hf])
          await runDownload(planDownload(listing, it.kind, it.iteration, join(dest, it.dir)), {
            ...c,
            concurrency: 4,
            stateDir: join(work, 'state'),
          });
      });
      rmSync(dest, { recursive: true, force: true });
      rmSync(join(work, 'state'), { recursive: true, force: true });
      if (!check || a.ms < check.ms) check = a;
      if (!full || b.ms < full.ms) full = b;
    }
  } finally {
    await emu.close();
    rmSync(work, { recursive: true, force: true });
  }
  if (!check || !full) throw new Error('no round ran');
  recordResults('checkpoint check: 3 resume and 3 hf iterations', [
    `A Hub repo of 3 resume iterations (torch_dist, 4 ranks, a .metadata of ${kb(metadataBytes / 3)}, shards of ${SHARD_MB} MB, one upload cut) and`,
    `3 hf iterations (2 BF16 shards of ${SHARD_MB} MB, one missing a shard) on the local Hub emulator; best of ${ROUNDS} alternating rounds.`,
    'The baseline: downloading the same 6 iterations in full, the other way to find out.',
    '',
    '| | requests | bytes | time |',
    '| --- | ---: | ---: | ---: |',
    `| \`rlrb check\` (listing, 3 \`.metadata\` whole, index + 8 bytes + header per hf shard) | ${check.requests} | ${kb(check.bytes)} | ${check.ms.toFixed(0)} ms |`,
    `| full download of the 6 iterations | ${full.requests} | ${mb(full.bytes)} | ${full.ms.toFixed(0)} ms |`,
    `| ratio (check / download) | ${(check.requests / full.requests).toFixed(2)}x | ${(check.bytes / full.bytes).toExponential(2)}x | ${(check.ms / full.ms).toFixed(3)}x |`,
    '',
    `Of the check's bytes, ${kb(metadataBytes)} are the three \`.metadata\` files (read whole); no shard body is read.`,
  ]);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
