/**
 * The runs table over many runs of the demo's size, as a user runs it: `rlrb runs <50 runs>
 * --baseline <the first>` the first time (every log indexed, figures kept) and the second time
 * (the kept figures: no log read), in CPU time (user + sys of the process, from /usr/bin/time:
 * on a shared machine wall time says more of the others than of us) and peak RSS, against the
 * CLI's start (`rlrb --version`) measured in the same run. Target: the second open under 1 s.
 * `RLRB_BENCH_RUNS` (50), `RLRB_BENCH_TRAJECTORIES` (the demo's 10,800).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeDemo } from '../src/core/demo/demo';
import { recordResults } from './common';

const RUNS = Number(process.env['RLRB_BENCH_RUNS'] ?? 50);
const TRAJECTORIES = Number(process.env['RLRB_BENCH_TRAJECTORIES'] ?? 10_800);
const CLI = resolve('dist/cli.js');
const TIME = '/usr/bin/time';

interface Cost {
  /** user + sys CPU ms */
  cpu: number;
  wall: number;
  rssMb: number;
}

/** One `rlrb ...args` with its saved indexes in `cache`, measured by /usr/bin/time; it must exit 0. */
function measured(cache: string, args: readonly string[]): Cost {
  const t0 = performance.now();
  const r = spawnSync(TIME, ['-f', 'rlrb-time %U %S %M', process.execPath, CLI, ...args], {
    env: { ...process.env, XDG_CACHE_HOME: cache },
    maxBuffer: 1 << 28,
    encoding: 'utf8',
  });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`rlrb ${args.slice(0, 2).join(' ')}…: exit ${r.status}: ${r.stderr.slice(-400)}`);
  const m = /rlrb-time ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no figures from ${TIME}: ${r.stderr.slice(-200)}`);
  return { cpu: (Number(m[1]) + Number(m[2])) * 1000, wall, rssMb: Number(m[3]) / 1024 };
}

const best = (xs: Cost[]): Cost => xs.reduce((a, b) => (b.cpu < a.cpu ? b : a));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function main(): void {
  if (!existsSync(TIME)) throw new Error(`${TIME} is needed (Debian: apt-get install time)`);
  const dir = mkdtempSync(join(tmpdir(), 'rlrb-bench-runs-'));
  const cache = join(dir, 'cache');
  try {
    const first = join(dir, 'run-00');
    writeDemo(first, { trajectories: TRAJECTORIES, hubRepo: false, baseline: false });
    const runs = [first];
    for (let i = 1; i < RUNS; i++) {
      const d = join(dir, `run-${String(i).padStart(2, '0')}`);
      cpSync(first, d, { recursive: true });
      runs.push(d);
    }
    const args = ['runs', ...runs, '--baseline', first, '--json'];
    const loadBefore = load();
    const start = [measured(cache, ['--version'])];
    const cold = measured(cache, args);
    start.push(measured(cache, ['--version']));
    const second = [measured(cache, args), measured(cache, args), measured(cache, args)];
    start.push(measured(cache, ['--version']));
    const s = best(start);
    const w = best(second);
    recordResults(`Runs table: ${RUNS} runs`, [
      `${RUNS} runs of ${TRAJECTORIES.toLocaleString('en')} trajectories each (the demo's size, copies of one), \`rlrb runs <runs> --baseline <the first> --json\`.`,
      `Load average before: ${loadBefore}; after: ${load()} (2 cores shared: CPU time is the figure, wall time is shown for what it is).`,
      '',
      '| | CPU (user + sys) | wall | peak RSS | ratio |',
      '| --- | --- | --- | --- | --- |',
      `| baseline: \`rlrb --version\` (the CLI's start, best of 3) | ${s.cpu.toFixed(0)} ms | ${s.wall.toFixed(0)} ms | ${s.rssMb.toFixed(0)} MB | 1 |`,
      `| first open (every log indexed, figures kept) | ${cold.cpu.toFixed(0)} ms | ${cold.wall.toFixed(0)} ms | ${cold.rssMb.toFixed(0)} MB | ${(cold.cpu / s.cpu).toFixed(1)}x the start |`,
      `| second open (kept figures, best of 3) | ${w.cpu.toFixed(0)} ms | ${w.wall.toFixed(0)} ms | ${w.rssMb.toFixed(0)} MB | ${(w.cpu / s.cpu).toFixed(2)}x the start; ${(cold.cpu / w.cpu).toFixed(0)}x less than the first |`,
      '',
      `Second open: ${w.cpu.toFixed(0)} ms CPU (target < 1000 ms): ${w.cpu < 1000 ? 'PASS' : 'FAIL'}.`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
