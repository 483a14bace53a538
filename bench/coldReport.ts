/**
 * What a user waits for, end to end: a cold `rlrb report <run> --json` (an empty index cache,
 * process start to exit) on a generated 389 MB credit log, with the default options, with
 * `--threads 1` and `--threads 2`, against `jq` reading one field of every line [the
 * baselines: `--threads 1` and jq, measured in the same rounds]; interleaved rounds in a
 * rotating order, the median of each, the CPU time (user + sys of the child) next to the wall
 * time and the load average next to both (the machine is shared: CPU time is what another
 * process moves least). Then the scanner alone, one thread, on the log in memory (MB/s of
 * CPU time, several rounds); then what a stalled download connection costs, before and after
 * the server answered, with the default watches [the same download without the stall].
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeDemo } from '../src/core/demo/demo';
import { FastScanner } from '../src/core/log/fastScan';
import { buildSchemaTables } from '../src/core/record/schema';
import { DEFAULT_MATCH } from '../src/core/credit/actions';
import { threadCpu } from '../src/core/log/threads/cpu';
import { startHubEmulator } from '../test/hubEmulator/server';
import { listRun } from '../src/core/hub/model';
import { planDownload, runDownload } from '../src/core/hub/download';
import { recordResults } from './common';

const TARGET_BYTES = Number(process.env['RLRB_BENCH_REPORT_BYTES'] ?? 389e6);
const ROUNDS = Number(process.env['RLRB_BENCH_ROUNDS'] ?? 5);
const CLI = resolve('dist/cli.js');
const run = join('bench', 'data', `report-${TARGET_BYTES}`);
const log = join(run, 'logs', 'ws_credit_log.jsonl');

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const load = (): number => loadavg()[0]!;

/** CPU ms of this process's ended children (Linux: cutime + cstime of /proc/self/stat, in 10 ms ticks). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

interface Timed {
  ms: number;
  cpuMs: number;
  load: number;
  out: string;
}

function timed(cmd: string, args: string[], env: Record<string, string> = {}): Timed {
  const l = load();
  const k0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 28, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(0, 300)}`);
  return { ms, cpuMs: childrenCpuMs() - k0, load: l, out: r.stdout };
}

/** A cold report: a fresh, empty cache folder. */
function coldReport(threads: string[]): Timed {
  const cache = mkdtempSync(join(tmpdir(), 'rlrb-bench-cold-'));
  try {
    return timed(process.execPath, [CLI, 'report', run, '--json', ...threads], { XDG_CACHE_HOME: cache });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

const CLIENTS: [string, () => Timed][] = [
  ['rlrb report --json (default)', () => coldReport([])],
  ['rlrb report --json --threads 1', () => coldReport(['--threads', '1'])],
  ['rlrb report --json --threads 2', () => coldReport(['--threads', '2'])],
  ['jq -c .reward', () => timed('jq', ['-c', '.reward', log])],
];

/** The scanner alone on the log in memory: MB/s of this thread's CPU time, each round. */
function scannerRounds(n: number): number[] {
  const buf = readFileSync(log);
  const out: number[] = [];
  for (let r = 0; r < n; r++) {
    const sc = new FastScanner(buildSchemaTables({}), DEFAULT_MATCH, true);
    const c0 = threadCpu()!.cpuMs;
    for (let s = 0, nl = buf.indexOf(10); nl >= 0; s = nl + 1, nl = buf.indexOf(10, s)) sc.scan(buf, s, nl);
    out.push(buf.length / 1e3 / (threadCpu()!.cpuMs - c0));
  }
  return out;
}

/** Seconds a download of one file takes, with the emulator's `fault` set for its first request(s), the default watches. */
async function stallCost(): Promise<string[]> {
  const repoDir = mkdtempSync(join(tmpdir(), 'rlrb-bench-stall-repo-'));
  const r = join(repoDir, 'resume', 'iter_0000001');
  mkdirSync(r, { recursive: true });
  writeFileSync(join(r, '__0_0.distcp'), randomBytes(8 << 20));
  writeFileSync(join(repoDir, 'resume', 'latest_checkpointed_iteration.txt'), '1');
  const emu = await startHubEmulator({ repos: { 'bench/stall': repoDir } });
  const dests: string[] = [];
  try {
    const once = async (fault: () => void): Promise<number> => {
      const dest = mkdtempSync(join(tmpdir(), 'rlrb-bench-stall-dest-'));
      dests.push(dest);
      const l = await listRun('bench/stall', 'main', { endpoint: emu.url });
      fault();
      const t0 = performance.now();
      await runDownload(planDownload(l, 'resume', 1, dest), { endpoint: emu.url });
      delete emu.faults.stall;
      delete emu.faults.noHeaders;
      return (performance.now() - t0) / 1000;
    };
    const plain = await once(() => undefined);
    const l0 = load();
    const after = await once(() => void (emu.faults.stall = { afterBytes: 1 << 20, count: 1 }));
    const before = await once(() => void (emu.faults.noHeaders = { count: 1, ranged: false }));
    return [
      `- one 8 MB file from the emulator: ${plain.toFixed(2)} s without a fault [the baseline]`,
      `- a connection that goes silent after 1 MB: ${after.toFixed(1)} s, the stall cost ${(after - plain).toFixed(1)} s (target <= 20 s; load ${l0.toFixed(1)})`,
      `- a request that never gets its headers: ${before.toFixed(1)} s, the stall cost ${(before - plain).toFixed(1)} s (target <= 20 s)`,
    ];
  } finally {
    await emu.close();
    for (const d of [repoDir, ...dests]) rmSync(d, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(log) || statSync(log).size < TARGET_BYTES * 0.95) {
    mkdirSync(run, { recursive: true });
    console.log(`generating a ${(TARGET_BYTES / 1e6).toFixed(0)} MB credit log in ${run} ...`);
    writeDemo(run, { trajectories: Math.ceil(TARGET_BYTES / 2130), hubRepo: false, baseline: false });
  }
  const size = statSync(log).size;
  readFileSync(log); // into the page cache
  const results = new Map<string, Timed[]>(CLIENTS.map(([n]) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    // each client first in turn: none always follows another's page-cache or CPU state
    for (let k = 0; k < CLIENTS.length; k++) {
      const [name, f] = CLIENTS[(r + k) % CLIENTS.length]!;
      results.get(name)!.push(f());
    }
  }
  const outs = new Set(CLIENTS.slice(0, 3).flatMap(([n]) => results.get(n)!.map((t) => t.out)));
  if (outs.size !== 1) throw new Error('the reports differ between thread counts');
  const med = (n: string, f: (t: Timed) => number): number => median(results.get(n)!.map(f));
  const [dflt, one, two, jq] = CLIENTS.map(([n]) => n) as [string, string, string, string];
  const x = (a: number, b: number): string => `${(b / a).toFixed(2)}x`;
  const lines = [
    `log: ${(size / 1e6).toFixed(0)} MB; ${ROUNDS} rounds, each client first in turn; every rlrb run cold (an empty cache folder), process start to exit`,
    '',
    '| client | wall, median (s) | wall, each round (s) | CPU user+sys, median (s) | load at each start |',
    '|---|---|---|---|---|',
    ...CLIENTS.map(([n]) => {
      const ts = results.get(n)!;
      return `| ${n} | ${(med(n, (t) => t.ms) / 1000).toFixed(2)} | ${ts.map((t) => (t.ms / 1000).toFixed(2)).join(', ')} | ${(med(n, (t) => t.cpuMs) / 1000).toFixed(2)} | ${ts.map((t) => t.load.toFixed(1)).join(', ')} |`;
    }),
    '',
    `- default against jq (wall, medians): **${x(
      med(dflt, (t) => t.ms),
      med(jq, (t) => t.ms),
    )}** (target >= 2x); CPU ${x(
      med(dflt, (t) => t.cpuMs),
      med(jq, (t) => t.cpuMs),
    )}`,
    `- default against --threads 1 (wall): **${x(
      med(dflt, (t) => t.ms),
      med(one, (t) => t.ms),
    )}**; --threads 1 against jq: ${x(
      med(one, (t) => t.ms),
      med(jq, (t) => t.ms),
    )} (CPU ${x(
      med(one, (t) => t.cpuMs),
      med(jq, (t) => t.cpuMs),
    )})`,
    `- --threads 2 against --threads 1 (wall): **${x(
      med(two, (t) => t.ms),
      med(one, (t) => t.ms),
    )}** (target >= 1.5x on a quiet machine, never below 1x with a core busy); CPU in all ${x(
      med(one, (t) => t.cpuMs),
      med(two, (t) => t.cpuMs),
    )} of one thread's`,
    `- the same report from every thread count: true`,
  ];
  const scans = scannerRounds(5);
  lines.push(
    `- the scanner alone, one thread, the log in memory (MB/s of CPU time, 5 rounds): ${scans.map((s) => s.toFixed(0)).join(', ')}; median ${median(scans).toFixed(0)} (load ${load().toFixed(1)})`,
  );
  lines.push(...(await stallCost()));
  recordResults('cold report end to end, and a stalled connection', lines);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
