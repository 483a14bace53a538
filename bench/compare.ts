/**
 * Comparing two runs against reporting both, in one process on the same two generated
 * logs of about 400 MB each: the demo's ws-credit run (A) and a plain GRPO run (B) over
 * the same iterations, with more groups per iteration so that its smaller records add up
 * to the same size. Interleaved rounds, fresh runs each time, timed in this process's CPU
 * (contention from other processes changes it least) and wall clock; target: compare <= 1.2x.
 * `--small` uses 40 MB logs and only prints; `--generate` only writes the logs.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { DEMO_ROLLOUTS, DEMO_SEED, writeDemo } from '../src/core/demo/demo';
import { writeBaseline } from '../src/core/demo/baseline';
import { Run } from '../src/core/run/run';
import { RunComparer } from '../src/core/compare/compareRuns';
import { TaskColumn } from '../src/core/compare/taskColumn';
import { recordResults, mbps, peakRssMb } from './common';

const small = process.argv.includes('--small');
const TARGET_BYTES = Number(process.env['RLRB_BENCH_COMPARE_BYTES'] ?? (small ? 4e7 : 4e8));
const ROUNDS = 3;
/** bytes a trajectory, about: the ws-credit run's and the plain run's */
const BYTES_A = 2140;
const BYTES_B = 625;
const GROUPS_A = 48;

const root = join('bench', 'data', `compare-${TARGET_BYTES}`);
const dirA = join(root, 'a');
const dirB = join(root, 'b');
const logOf = (d: string): string => join(d, 'logs', 'ws_credit_log.jsonl');

function generate(): void {
  const nA = Math.ceil(TARGET_BYTES / BYTES_A);
  const iterations = Math.ceil(nA / (GROUPS_A * DEMO_ROLLOUTS));
  if (!existsSync(logOf(dirA)) || statSync(logOf(dirA)).size < TARGET_BYTES * 0.9) {
    mkdirSync(dirA, { recursive: true });
    console.log(`generating run A (~${(TARGET_BYTES / 1e6).toFixed(0)} MB) in ${dirA} ...`);
    writeDemo(dirA, { trajectories: nA, hubRepo: false, baseline: false });
  }
  if (!existsSync(logOf(dirB)) || statSync(logOf(dirB)).size < TARGET_BYTES * 0.9) {
    const groups = Math.round((GROUPS_A * BYTES_A) / BYTES_B);
    console.log(`generating run B (~${(TARGET_BYTES / 1e6).toFixed(0)} MB, ${groups} groups an iteration) in ${dirB} ...`);
    writeBaseline(dirB, {
      trajectories: iterations * groups * DEMO_ROLLOUTS,
      seed: DEMO_SEED,
      iterations,
      groups,
      rollouts: DEMO_ROLLOUTS,
    });
  }
}

async function openBoth(): Promise<[Run, Run]> {
  const [a, b] = await Promise.all([Run.open(dirA), Run.open(dirB)]);
  await Promise.all([a!.update(), b!.update()]);
  return [a!, b!];
}

interface Timing {
  /** wall clock */
  ms: number;
  /** this process's user + system CPU: what contention with other processes changes least */
  cpuMs: number;
}

async function timed<T>(f: () => Promise<T>): Promise<Timing & { value: T }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = await f();
  const d = process.cpuUsage(c);
  return { ms: performance.now() - t, cpuMs: (d.user + d.system) / 1000, value };
}

async function reportBoth(): Promise<Timing> {
  const r = await timed(async () => {
    const [a, b] = await openBoth();
    return a.report()!.report.trajectories + b.report()!.report.trajectories;
  });
  if (r.value <= 0) throw new Error('no trajectories');
  return r;
}

async function compareBoth(): Promise<Timing & { tasks: number; iterations: number }> {
  const r = await timed(async () => {
    const [a, b] = await openBoth();
    return new RunComparer(a, b).compute();
  });
  return { ...r, tasks: r.value.figures.tasks.count, iterations: r.value.figures.iterations };
}

/** The task pass alone, on an index already read. */
async function taskPass(): Promise<Timing> {
  const [a, b] = await openBoth();
  return timed(() => Promise.all([new TaskColumn(a.credit!).update(), new TaskColumn(b.credit!).update()]));
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  generate();
  if (process.argv.includes('--generate')) return;
  const sizeA = statSync(logOf(dirA)).size;
  const sizeB = statSync(logOf(dirB)).size;
  // warm the page cache the same way for both measurements
  await reportBoth();
  const rep: Timing[] = [];
  const cmp: Timing[] = [];
  let last = { tasks: 0, iterations: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    for (const which of r % 2 === 0 ? ['report', 'compare'] : ['compare', 'report']) {
      gc();
      if (which === 'report') rep.push(await reportBoth());
      else {
        const c = await compareBoth();
        cmp.push(c);
        last = c;
      }
    }
  }
  gc();
  const pass = await taskPass();
  const wall = (xs: Timing[]): number => median(xs.map((x) => x.ms));
  const cpu = (xs: Timing[]): number => median(xs.map((x) => x.cpuMs));
  const both = sizeA + sizeB;
  // a trial at --small is printed, not kept
  const out = small ? (_: string, lines: string[]): void => console.log(lines.join('\n')) : recordResults;
  const list = (xs: Timing[]): string =>
    xs.map((x) => `${(x.ms / 1000).toFixed(1)} s wall / ${(x.cpuMs / 1000).toFixed(1)} s CPU`).join(', ');
  out('compare', [
    `logs: A ${(sizeA / 1e6).toFixed(0)} MB (ws-credit), B ${(sizeB / 1e6).toFixed(0)} MB (plain GRPO); ${last.iterations} common iterations, ${last.tasks} paired tasks; ${ROUNDS} interleaved rounds, medians; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
    '',
    '| work | CPU s | wall s | MB/s (wall, both logs) | ratio to reporting both, CPU (wall) |',
    '|---|---|---|---|---|',
    `| report both (index + section-4 report of each) | ${(cpu(rep) / 1000).toFixed(1)} | ${(wall(rep) / 1000).toFixed(1)} | ${mbps(both, wall(rep)).toFixed(0)} | 1.00 |`,
    `| compare (the same + task pass + section 6) | ${(cpu(cmp) / 1000).toFixed(1)} | ${(wall(cmp) / 1000).toFixed(1)} | ${mbps(both, wall(cmp)).toFixed(0)} | ${(cpu(cmp) / cpu(rep)).toFixed(2)} (${(wall(cmp) / wall(rep)).toFixed(2)}) (target <= 1.2) |`,
    '',
    `- the task pass alone (both logs, indexes already read): ${(pass.cpuMs / 1000).toFixed(1)} s CPU, ${(pass.ms / 1000).toFixed(1)} s wall`,
    `- report rounds: ${list(rep)}`,
    `- compare rounds: ${list(cmp)}`,
    `- peak RSS: ${peakRssMb().toFixed(0)} MB`,
  ]);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
