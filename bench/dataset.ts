/**
 * The Parquet dataset export of one large credit log against the cold index of the same log, as
 * a user runs them: `rlrb report` with no saved index (the baseline: the cold index, every core),
 * then `rlrb export --dataset` from the saved index (the export's own work), each in CPU time
 * (user + sys of the process and its workers, from /usr/bin/time) and peak RSS. Targets: the
 * export at least at the cold index's speed (ratio >= 1), under 500 MB. `RLRB_BENCH_BYTES` (1 GB).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeDemo } from '../src/core/demo/demo';
import { recordResults } from './common';

const BYTES = Number(process.env['RLRB_BENCH_BYTES'] ?? 1e9);
const CLI = resolve('dist/cli.js');
const TIME = '/usr/bin/time';

interface Cost {
  cpu: number;
  wall: number;
  rssMb: number;
}

function measured(cache: string, args: readonly string[]): Cost {
  const t0 = performance.now();
  const r = spawnSync(TIME, ['-f', 'rlrb-time %U %S %M', process.execPath, CLI, ...args], {
    env: { ...process.env, XDG_CACHE_HOME: cache },
    maxBuffer: 1 << 28,
    encoding: 'utf8',
  });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`rlrb ${args[0]}: exit ${r.status}: ${r.stderr.slice(-400)}`);
  const m = /rlrb-time ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`no figures from ${TIME}: ${r.stderr.slice(-200)}`);
  return { cpu: (Number(m[1]) + Number(m[2])) * 1000, wall, rssMb: Number(m[3]) / 1024 };
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function main(): void {
  if (!existsSync(TIME)) throw new Error(`${TIME} is needed (Debian: apt-get install time)`);
  const dir = mkdtempSync(join(tmpdir(), 'rlrb-bench-dataset-'));
  try {
    const run = join(dir, 'run');
    const { creditLog } = writeDemo(run, { trajectories: Math.ceil(BYTES / 2130), hubRepo: false, baseline: false });
    const mb = statSync(creditLog).size / 1e6;
    const loadBefore = load();
    const index = measured(join(dir, 'cache'), ['report', run, '--json']);
    const exp = measured(join(dir, 'cache'), ['export', run, '--dataset', join(dir, 'dataset')]);
    const speed = (c: Cost): number => mb / (c.cpu / 1000);
    const ratio = speed(exp) / speed(index);
    recordResults('Dataset export', [
      `A ${mb.toFixed(0)} MB credit log (the demo's generator). Load average before: ${loadBefore}; after: ${load()} (2 shared cores: CPU time is the figure).`,
      '',
      '| | CPU (user + sys) | MB/s of CPU | wall | peak RSS | ratio |',
      '| --- | --- | --- | --- | --- | --- |',
      `| baseline: the cold index (\`rlrb report\`, no saved index) | ${index.cpu.toFixed(0)} ms | ${speed(index).toFixed(1)} | ${index.wall.toFixed(0)} ms | ${index.rssMb.toFixed(0)} MB | 1 |`,
      `| \`rlrb export --dataset\` (from the saved index) | ${exp.cpu.toFixed(0)} ms | ${speed(exp).toFixed(1)} | ${exp.wall.toFixed(0)} ms | ${exp.rssMb.toFixed(0)} MB | ${ratio.toFixed(2)}x the index's speed |`,
      '',
      `Export speed at least the cold index's (ratio >= 1): ${ratio >= 1 ? 'PASS' : 'FAIL'}; memory under 500 MB: ${exp.rssMb < 500 ? 'PASS' : 'FAIL'}.`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
