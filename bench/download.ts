/**
 * Downloads a 2 GB iteration (8 files) from the Hub emulator on 127.0.0.1 with the
 * product's downloader, and the same files with curl in parallel as the baseline.
 * The emulator, the downloader and curl each run in their own process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, writeSync, closeSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir, cpus } from 'node:os';
import { createHash } from 'node:crypto';
import { appendResults, mbps } from './common';
import { listRun } from '../src/core/hub/model';
import { planDownload, runDownload } from '../src/core/hub/download';

const TOTAL = Number(process.env['RLRB_BENCH_DOWNLOAD_BYTES'] ?? 2e9);
const FILES = 8;
const REPO = 'bench/big-run';
const repoDir = resolve('bench', 'data', `hub-${TOTAL}`);

function makeRepo(): void {
  const d = join(repoDir, 'resume', 'iter_0000001');
  const per = Math.floor(TOTAL / FILES);
  if (existsSync(join(d, `__3_1.distcp`)) && statSync(join(d, '__3_1.distcp')).size === per) return;
  mkdirSync(d, { recursive: true });
  const chunk = Buffer.allocUnsafe(8 << 20);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24;
  for (let f = 0; f < FILES; f++) {
    const fd = openSync(join(d, `__${f >> 1}_${f & 1}.distcp`), 'w');
    for (let w = 0; w < per; w += chunk.length) { chunk[0] = f; chunk[1] = w & 255; writeSync(fd, chunk, 0, Math.min(chunk.length, per - w)); }
    closeSync(fd);
  }
  const fd = openSync(join(repoDir, 'resume', 'latest_checkpointed_iteration.txt'), 'w');
  writeSync(fd, '1');
  closeSync(fd);
}

async function worker(endpoint: string, dest: string): Promise<void> {
  const t = performance.now();
  const l = await listRun(REPO, 'main', { endpoint });
  const res = await runDownload(planDownload(l, 'resume', 1, dest), { endpoint, concurrency: 4 });
  const ms = performance.now() - t;
  const cpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ ms, bytes: res.bytesFetched, rssMb: process.resourceUsage().maxRSS / 1024, userMs: cpu.user / 1000, sysMs: cpu.system / 1000 }) + '\n');
}

async function main(): Promise<void> {
  if (process.argv[2] === 'worker') return worker(process.argv[3]!, process.argv[4]!);
  makeRepo();
  const emu = spawn('node', ['dist/emulator.js', '--repo', `${REPO}=${repoDir}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((res) => emu.stdout!.on('data', (c: Buffer) => { const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(c.toString()); if (m) res(m[1]!); }));
  try {
    const work = mkdtempSync(join(tmpdir(), 'rlrb-bench-'));
    // curl baseline: the same files, all at once, to disk
    const names = Array.from({ length: FILES }, (_, f) => `__${f >> 1}_${f & 1}.distcp`);
    // curl baseline: the same files, 4 at a time (the downloader's concurrency), to disk;
    // then the time until curl's files are on disk too (sync), as the downloader fsyncs each file
    const curlOne = (n: string): Promise<void> => new Promise<void>((res, rej) => {
      const c = spawn('curl', ['-sfL', '-o', join(work, `curl-${n}`), `${url}/${REPO}/resolve/main/resume/iter_0000001/${n}`], { stdio: 'inherit' });
      c.on('close', (code) => (code === 0 ? res() : rej(new Error(`curl exit ${code}`))));
    });
    spawnSync('sync');
    let t = performance.now();
    const queue = [...names];
    await Promise.all(Array.from({ length: 4 }, async () => { while (queue.length) await curlOne(queue.shift()!); }));
    const curlMs = performance.now() - t;
    spawnSync('sync');
    const curlSyncMs = performance.now() - t;
    for (const n of names) rmSync(join(work, `curl-${n}`));
    spawnSync('sync');
    // the product's downloader, in its own process
    t = performance.now();
    const r = spawnSync('node', [__filename, 'worker', url, join(work, 'dst')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    const w = JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; bytes: number; rssMb: number; userMs: number; sysMs: number };
    // what verification alone costs here: SHA-256 of the same number of bytes, in memory
    const block = Buffer.alloc(8 << 20, 7);
    const h = createHash('sha256');
    const ht = performance.now();
    for (let b = 0; b < TOTAL; b += block.length) h.update(block);
    h.digest();
    const hashMs = performance.now() - ht;
    rmSync(work, { recursive: true, force: true });
    const curlRate = mbps(TOTAL, curlMs);
    const curlSyncRate = mbps(TOTAL, curlSyncMs);
    const ours = mbps(w.bytes, w.ms);
    appendResults('downloader', [
      `iteration: ${FILES} files, ${(TOTAL / 1e9).toFixed(2)} GB, from the emulator on 127.0.0.1 (LFS: 302 to the CDN origin)`,
      '',
      '| client | MB/s | ratio to curl |',
      '|---|---|---|',
      `| curl, 4 at a time, to disk (page cache) | ${curlRate.toFixed(0)} | 1.00 |`,
      `| curl, 4 at a time, then sync (on disk) | ${curlSyncRate.toFixed(0)} | ${(curlSyncRate / curlRate).toFixed(2)} |`,
      `| rlrb downloader, 4 at once, sha256-verified, fsync'd (in the background), renamed into place | ${ours.toFixed(0)} | ${(ours / curlRate).toFixed(2)} to curl (target >= 0.9); ${(ours / curlSyncRate).toFixed(2)} to curl + sync |`,
      '',
      `- downloader peak RSS: ${w.rssMb.toFixed(0)} MB (target < 200)`,
      `- downloader CPU: ${(w.userMs / 1000).toFixed(1)} s user + ${(w.sysMs / 1000).toFixed(1)} s system for ${(TOTAL / 1e9).toFixed(1)} GB in ${(w.ms / 1000).toFixed(1)} s on ${cpus().length} cores shared with the emulator; SHA-256 alone takes ${(hashMs / 1000).toFixed(1)} s of one core here (${mbps(TOTAL, hashMs).toFixed(0)} MB/s)`,
    ]);
  } finally {
    emu.kill();
  }
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
