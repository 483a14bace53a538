/**
 * Downloads a 2 GB iteration (8 files) from the Hub emulator on 127.0.0.1 with the
 * product's downloader, and the same files with curl in parallel as the baseline.
 * The emulator, the downloader and curl each run in their own process. Two floors show
 * what any Node client pays here before it does anything a careful downloader must:
 * Node's fetch alone, and fetch + SHA-256 + writes on one thread.
 *
 * Then one 300 MB shard behind a per-connection cap of 25 MB/s (a CDN's, set on the
 * emulator), the same with one core kept busy, and without a cap: `rlrb download` against
 * one curl connection, against `curl --parallel` of N ranges, against the downloader with
 * one connection per file (as it was before ranges) and against `hf download` (when
 * huggingface_hub's CLI is installed), same file, same rounds; then behind 10 MB/s a
 * connection, the default against each fixed `--concurrency`.
 * `RLRB_BENCH_DOWNLOAD=shard` runs only that part.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, writeSync, closeSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { tmpdir, cpus, loadavg } from 'node:os';
import { createHash } from 'node:crypto';
import { recordResults, mbps } from './common';
import { listRun } from '../src/core/hub/model';
import { planDownload, runDownload } from '../src/core/hub/download';
import { busyCore, hfCli, hfDownload, rlrbDownload, runProcess } from './shardClients';

const TOTAL = Number(process.env['RLRB_BENCH_DOWNLOAD_BYTES'] ?? 2e9);
const FILES = 8;
const ROUNDS = Number(process.env['RLRB_BENCH_DOWNLOAD_ROUNDS'] ?? 3);
const NAMES = Array.from({ length: FILES }, (_, f) => `__${f >> 1}_${f & 1}.distcp`);
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
    for (let w = 0; w < per; w += chunk.length) {
      chunk[0] = f;
      chunk[1] = w & 255;
      writeSync(fd, chunk, 0, Math.min(chunk.length, per - w));
    }
    closeSync(fd);
  }
  const fd = openSync(join(repoDir, 'resume', 'latest_checkpointed_iteration.txt'), 'w');
  writeSync(fd, '1');
  closeSync(fd);
}

interface Run {
  ms: number;
  bytes: number;
  rssMb: number;
  userMs: number;
  sysMs: number;
}

function report(ms: number, bytes: number): void {
  const cpu = process.cpuUsage();
  const r: Run = { ms, bytes, rssMb: process.resourceUsage().maxRSS / 1024, userMs: cpu.user / 1000, sysMs: cpu.system / 1000 };
  process.stdout.write(JSON.stringify(r) + '\n');
}

/** The product's downloader, as the CLI runs it. */
async function worker(endpoint: string, dest: string): Promise<void> {
  const t = performance.now();
  const l = await listRun(REPO, 'main', { endpoint });
  const res = await runDownload(planDownload(l, 'resume', 1, dest), { endpoint, concurrency: 4 });
  report(performance.now() - t, res.bytesFetched);
}

/**
 * The least a Node client can do, 4 files at a time on one thread with Node's own fetch:
 * `recv` reads the bytes and drops them; `verify` also hashes them (SHA-256) and appends
 * them to a file in 1 MB writes (no fsync, no resume, no Hub client, no progress).
 */
async function floor(url: string, mode: 'recv' | 'verify', dest: string): Promise<void> {
  mkdirSync(dest, { recursive: true });
  const t = performance.now();
  const queue = [...NAMES];
  const one = async (n: string): Promise<void> => {
    const res = await fetch(`${url}/${REPO}/resolve/main/resume/iter_0000001/${n}`);
    const reader = res.body!.getReader();
    const h = mode === 'verify' ? createHash('sha256') : undefined;
    const fh = mode === 'verify' ? await open(join(dest, n), 'w') : undefined;
    let batch: Uint8Array[] = [];
    let len = 0;
    let inflight: Promise<unknown> = Promise.resolve();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      if (fh) {
        batch.push(r.value);
        len += r.value.length;
        if (len >= 1 << 20) {
          await inflight;
          inflight = fh.writev(batch);
          batch = [];
          len = 0;
        }
        h!.update(r.value);
      }
    }
    if (fh) {
      await inflight;
      await fh.writev(batch);
      await fh.close();
    }
    h?.digest();
  };
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (queue.length) await one(queue.shift()!);
    }),
  );
  report(performance.now() - t, TOTAL);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: number[], digits = 2): string => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;

const SHARD_BYTES = Number(process.env['RLRB_BENCH_SHARD_BYTES'] ?? 300e6);
const SHARD_CAP = 25e6;
/** the cap under which the default is held against each fixed `--concurrency` */
const SLOW_CAP = 10e6;
const FIXED = [4, 8, 16];
const SHARD_RANGES = 16;
const SHARD_REPO = 'bench/one-shard';
/** rounds of the shard's clients (at least 4: a ratio's spread needs more than three) */
const SHARD_ROUNDS = Math.max(4, ROUNDS + (ROUNDS % 2));
const shardDir = resolve('bench', 'data', `hub-shard-${SHARD_BYTES}`);
const SHARD_PATH = 'resume/iter_0000001/__0_0.distcp';

function makeShard(): void {
  const f = join(shardDir, SHARD_PATH);
  if (existsSync(f) && statSync(f).size === SHARD_BYTES) return;
  mkdirSync(join(shardDir, 'resume', 'iter_0000001'), { recursive: true });
  const chunk = Buffer.allocUnsafe(8 << 20);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24;
  const fd = openSync(f, 'w');
  for (let w = 0; w < SHARD_BYTES; w += chunk.length) {
    chunk[0] = w & 255;
    writeSync(fd, chunk, 0, Math.min(chunk.length, SHARD_BYTES - w));
  }
  closeSync(fd);
  const l = openSync(join(shardDir, 'resume', 'latest_checkpointed_iteration.txt'), 'w');
  writeSync(l, '1');
  closeSync(l);
}

/** The downloader on the shard with one connection for the file, as it was before ranges (an option no flag gives). */
async function shardWorker(endpoint: string, dest: string): Promise<void> {
  const t = performance.now();
  const l = await listRun(SHARD_REPO, 'main', { endpoint });
  const res = await runDownload(planDownload(l, 'resume', 1, dest), { endpoint, rangeBytes: 2 ** 52, concurrency: 1, maxConnections: 1 });
  report(performance.now() - t, res.bytesFetched);
}

/**
 * Writes every dirty page back (`sync`), outside any timing. The downloader fsyncs its file
 * every 32 MB, so it waits for whatever the client before it left in the page cache: whichever
 * of the two downloaders ran right after curl (600 MB written, no fsync) paid for curl's
 * writeback, and with an odd number of rounds one of them did so once more than the other.
 */
const settleDisk = (): void => void spawnSync('sync');

/** One client's runs: MB/s and the load average at each start. */
interface Runs {
  mbps: number[];
  load: number[];
}

const load1 = (): number => loadavg()[0]!;
/** a / b round by round: the median and the range */
const ratio = (a: number[], b: number[]): string => {
  const r = a.map((x, i) => x / b[i]!);
  return `${median(r).toFixed(2)} (${range(r)})`;
};
const loads = (xs: number[]): string => `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}`;

async function shardBench(url: string, work: string): Promise<string[]> {
  const fileUrl = `${url}/${SHARD_REPO}/resolve/main/${SHARD_PATH}`;
  const hf = hfCli();
  const setCap = async (cap: number | undefined): Promise<void> => {
    await fetch(`${url}/__emulator/faults`, { method: 'POST', body: JSON.stringify(cap ? { connectionBytesPerSecond: cap } : {}) });
  };
  /** each client's runs, by name; a run's files are removed and synced outside its timing */
  const runs = new Map<string, Runs>();
  const timed = async (name: string, out: string, f: (out: string) => Promise<void>): Promise<void> => {
    const r = runs.get(name) ?? { mbps: [], load: [] };
    runs.set(name, r);
    r.load.push(load1());
    const t = performance.now();
    await f(out);
    r.mbps.push(mbps(SHARD_BYTES, performance.now() - t));
    rmSync(out, { recursive: true, force: true });
    settleDisk();
  };
  const per = Math.ceil(SHARD_BYTES / SHARD_RANGES);
  const parallelArgs = (out: string): string[] =>
    Array.from({ length: SHARD_RANGES }, (_, i) => [
      ...(i > 0 ? ['--next'] : ['--parallel', '--parallel-max', String(SHARD_RANGES)]),
      '-sfL',
      '-r',
      `${i * per}-${Math.min(SHARD_BYTES, (i + 1) * per) - 1}`,
      '-o',
      join(out, `range-${i}`),
      fileUrl,
    ]).flat();
  const curl = (out: string): Promise<void> => runProcess('/usr/bin/curl', ['-sfL', '--create-dirs', '-o', join(out, 'file'), fileUrl]);
  const curlParallel = (out: string): Promise<void> => runProcess('/usr/bin/curl', ['--create-dirs', ...parallelArgs(out)]);
  const single = (out: string): Promise<void> => runProcess('node', [__filename, 'shard', url, out]);
  const rlrb =
    (concurrency?: number) =>
    (out: string): Promise<void> =>
      rlrbDownload(url, SHARD_REPO, join(out, 'dest'), join(out, 'state'), concurrency);
  const hfRun = (out: string): Promise<void> => hfDownload(hf!, url, SHARD_REPO, SHARD_PATH, join(out, 'dest'), join(out, 'home'));
  /** rounds of the clients, each round in a rotated order: none always follows another's writes */
  const rounds = async (prefix: string, clients: [string, (out: string) => Promise<void>][]): Promise<void> => {
    for (let round = 0; round < SHARD_ROUNDS; round++)
      for (let k = 0; k < clients.length; k++) {
        const [name, f] = clients[(round + k) % clients.length]!;
        await timed(`${prefix} ${name}`, join(work, name.replace(/\W+/g, '-')), f);
      }
  };
  const withHf = (cs: [string, (out: string) => Promise<void>][]): [string, (out: string) => Promise<void>][] =>
    hf ? [...cs, ['hf', hfRun]] : cs;
  const main: [string, (out: string) => Promise<void>][] = withHf([
    ['curl', curl],
    ['curl --parallel', curlParallel],
    ['rlrb 1 connection', single],
    ['rlrb', rlrb()],
  ]);
  await setCap(SHARD_CAP);
  await rounds('cap', main);
  // one core kept busy by another process: the load a user's machine has while it trains or builds
  const spin = busyCore();
  try {
    await rounds('busy', [
      ['curl', curl],
      ['rlrb', rlrb()],
    ]);
  } finally {
    await spin.stop();
  }
  await setCap(undefined);
  // uncapped, the same command with one stream too: the pool's own cost, process start and checks alike
  await rounds('free', [...main, ['rlrb --concurrency 1', rlrb(1)]]);
  await setCap(SLOW_CAP);
  await rounds('slow', [
    ['rlrb', rlrb()],
    ...FIXED.map((n): [string, (out: string) => Promise<void>] => [`rlrb --concurrency ${n}`, rlrb(n)]),
  ]);
  await setCap(undefined);
  const m = (name: string): number[] => runs.get(name)!.mbps;
  const l = (name: string): number[] => runs.get(name)!.load;
  const row = (cap: string, p: string): string =>
    `| ${cap} | ${median(l(`${p} rlrb`)).toFixed(1)} (${loads(l(`${p} rlrb`))}) | ${median(m(`${p} curl`)).toFixed(0)} | ${median(m(`${p} curl --parallel`)).toFixed(0)} | ${median(m(`${p} rlrb 1 connection`)).toFixed(0)} | ${median(m(`${p} rlrb`)).toFixed(0)} | ${ratio(m(`${p} rlrb`), m(`${p} curl`))} | ${ratio(m(`${p} rlrb`), m(`${p} rlrb 1 connection`))} | ${hf ? `${median(m(`${p} hf`)).toFixed(0)}; rlrb / hf ${ratio(m(`${p} rlrb`), m(`${p} hf`))}` : 'not installed'} |`;
  const secs = (name: string): number[] => m(name).map((x) => SHARD_BYTES / 1e6 / x);
  const fixedMedians = FIXED.map((n) => median(secs(`slow rlrb --concurrency ${n}`)));
  const best = FIXED[fixedMedians.indexOf(Math.min(...fixedMedians))]!;
  const slowLines = [
    ['slow rlrb', 'default'] as const,
    ...FIXED.map((n) => [`slow rlrb --concurrency ${n}`, `--concurrency ${n}`] as const),
  ].map(
    ([name, label]) =>
      `| ${label} | ${median(secs(name)).toFixed(1)} | ${range(secs(name), 1)} | ${ratio(secs(name), secs(`slow rlrb --concurrency ${best}`))} | ${loads(l(name))} |`,
  );
  return [
    `one shard of ${(SHARD_BYTES / 1e6).toFixed(0)} MB (Xet: 302 to the bridge origin); each client in its own process as a user runs it (rlrb: \`rlrb download\`, the built CLI, process start to exit), ${SHARD_ROUNDS} rounds, each round in a rotated order; ratios in the same round, median (range); load: the 1-minute load average at rlrb's starts, median (range); curl --parallel: ${SHARD_RANGES} ranges, to ${SHARD_RANGES} files (no join, no hash); rlrb 1 connection: the downloader with one connection for the file, as before ranges`,
    '',
    '| cap | load | curl, 1 connection, MB/s | curl --parallel, MB/s | rlrb 1 connection, MB/s | **rlrb**, MB/s | rlrb / 1 curl (target >= 4 capped) | rlrb / rlrb 1 connection (target >= 1 uncapped) | hf download, MB/s |',
    '|---|---|---|---|---|---|---|---|---|',
    row(`${SHARD_CAP / 1e6} MB/s a connection`, 'cap'),
    `| ${SHARD_CAP / 1e6} MB/s a connection, one core kept busy by a spinning process | ${median(l('busy rlrb')).toFixed(1)} (${loads(l('busy rlrb'))}) | ${median(m('busy curl')).toFixed(0)} | | | ${median(m('busy rlrb')).toFixed(0)} | ${ratio(m('busy rlrb'), m('busy curl'))} (target >= 3) | | |`,
    row('no cap', 'free'),
    '',
    `no cap: \`rlrb download\` against \`rlrb download --concurrency 1\` (one stream, the same command, same rounds): ${ratio(m('free rlrb'), m('free rlrb --concurrency 1'))} (target >= 1); ${median(m('free rlrb')).toFixed(0)} against ${median(m('free rlrb --concurrency 1')).toFixed(0)} MB/s. The column "rlrb 1 connection" is the downloader in the benchmark's own process (no CLI start, no checks before the download): the figure for the code, not the command.`,
    '',
    `behind ${SLOW_CAP / 1e6} MB/s a connection, the same shard: \`rlrb download\` by default and with each fixed \`--concurrency\`; seconds, process start to exit`,
    '',
    `| rlrb | s, median | s, range | / best fixed (--concurrency ${best}), same round (target <= 1.25 for the default) | load |`,
    '|---|---|---|---|---|',
    ...slowLines,
  ];
}

async function main(): Promise<void> {
  if (process.argv[2] === 'worker') return worker(process.argv[3]!, process.argv[4]!);
  if (process.argv[2] === 'shard') return shardWorker(process.argv[3]!, process.argv[4]!);
  if (process.env['RLRB_BENCH_DOWNLOAD'] === 'shard') return shardOnly();
  if (process.argv[2] === 'floor') return floor(process.argv[3]!, process.argv[4] as 'recv' | 'verify', process.argv[5]!);
  makeRepo();
  const emu = spawn('node', ['dist/emulator.js', '--repo', `${REPO}=${repoDir}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((res) =>
    emu.stdout.on('data', (c: Buffer) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(c.toString());
      if (m) res(m[1]!);
    }),
  );
  try {
    const work = mkdtempSync(join(tmpdir(), 'rlrb-bench-'));
    // curl: the same files, 4 at a time (the downloader's concurrency), to disk; then the
    // time until curl's files are on disk too (sync), as the downloader fsyncs each file
    const curlOne = (n: string): Promise<void> =>
      new Promise<void>((res, rej) => {
        const c = spawn('curl', ['-sfL', '-o', join(work, `curl-${n}`), `${url}/${REPO}/resolve/main/resume/iter_0000001/${n}`], {
          stdio: 'inherit',
        });
        c.on('close', (code) => (code === 0 ? res() : rej(new Error(`curl exit ${code}`))));
      });
    const inProcess = (args: string[]): Run => {
      const r = spawnSync('node', [__filename, ...args], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as Run;
    };
    const curl: number[] = [];
    const curlSync: number[] = [];
    const recv: number[] = [];
    const verify: number[] = [];
    const ours: number[] = [];
    const runs: Run[] = [];
    // interleaved rounds: this VM's speed drifts by 30 % from minute to minute
    for (let round = 0; round < ROUNDS; round++) {
      spawnSync('sync');
      const t = performance.now();
      const queue = [...NAMES];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (queue.length) await curlOne(queue.shift()!);
        }),
      );
      curl.push(mbps(TOTAL, performance.now() - t));
      spawnSync('sync');
      curlSync.push(mbps(TOTAL, performance.now() - t));
      for (const n of NAMES) rmSync(join(work, `curl-${n}`));
      for (const [mode, out] of [
        ['recv', recv],
        ['verify', verify],
      ] as const) {
        spawnSync('sync');
        const f = inProcess(['floor', url, mode, join(work, 'floor')]);
        out.push(mbps(f.bytes, f.ms));
        rmSync(join(work, 'floor'), { recursive: true, force: true });
      }
      spawnSync('sync');
      const w = inProcess(['worker', url, join(work, 'dst')]);
      runs.push(w);
      ours.push(mbps(w.bytes, w.ms));
      rmSync(join(work, 'dst'), { recursive: true, force: true });
    }
    // what verification alone costs here: SHA-256 of the same number of bytes, in memory
    const block = Buffer.alloc(8 << 20, 7);
    const h = createHash('sha256');
    const ht = performance.now();
    for (let b = 0; b < TOTAL; b += block.length) h.update(block);
    h.digest();
    const hashMs = performance.now() - ht;
    rmSync(work, { recursive: true, force: true });
    const ratios = (xs: number[]): number[] => xs.map((x, i) => x / curl[i]!);
    const row = (name: string, xs: number[]): string =>
      `| ${name} | ${median(xs).toFixed(0)} | ${range(xs, 0)} | ${median(ratios(xs)).toFixed(2)} (${range(ratios(xs))}) |`;
    const w = runs.slice().sort((a, b) => a.ms - b.ms)[runs.length >> 1]!;
    recordResults('downloader', [
      `iteration: ${FILES} files, ${(TOTAL / 1e9).toFixed(2)} GB, from the emulator on 127.0.0.1 (LFS: 302 to the CDN origin); ${ROUNDS} interleaved rounds, each client in its own process; ratios to curl in the same round`,
      '',
      '| client (4 files at a time) | MB/s, median | MB/s, range | ratio to curl, median (range) |',
      '|---|---|---|---|',
      row('curl, to disk (page cache)', curl),
      row('curl, then sync (on disk)', curlSync),
      row('Node floor: fetch, bytes dropped', recv),
      row('Node floor: fetch + SHA-256 + 1 MB writes, no fsync', verify),
      row("**rlrb downloader**: Hub client, resumable, SHA-256-verified, fsync'd, renamed into place (target >= 0.9)", ours),
      '',
      `- rlrb to the verifying floor: ${median(ours.map((x, i) => x / verify[i]!)).toFixed(2)} (${range(ours.map((x, i) => x / verify[i]!))}); to curl + sync: ${median(ours.map((x, i) => x / curlSync[i]!)).toFixed(2)}`,
      `- downloader peak RSS: ${Math.max(...runs.map((r) => r.rssMb)).toFixed(0)} MB (target < 200)`,
      `- downloader CPU (median run): ${(w.userMs / 1000).toFixed(1)} s user + ${(w.sysMs / 1000).toFixed(1)} s system for ${(TOTAL / 1e9).toFixed(1)} GB in ${(w.ms / 1000).toFixed(1)} s on ${cpus().length} cores shared with the emulator; SHA-256 alone takes ${(hashMs / 1000).toFixed(1)} s of one core here (${mbps(TOTAL, hashMs).toFixed(0)} MB/s)`,
    ]);
  } finally {
    emu.kill();
  }
  await shardOnly();
}

async function shardOnly(): Promise<void> {
  makeShard();
  const emu = spawn('node', ['dist/emulator.js', '--repo', `${SHARD_REPO}=${shardDir}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((res) =>
    emu.stdout.on('data', (c: Buffer) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(c.toString());
      if (m) res(m[1]!);
    }),
  );
  try {
    const work = mkdtempSync(join(tmpdir(), 'rlrb-bench-shard-'));
    recordResults('downloader, one shard behind a per-connection cap', await shardBench(url, work));
    rmSync(work, { recursive: true, force: true });
  } finally {
    emu.kill();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
