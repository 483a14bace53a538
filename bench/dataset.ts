/**
 * The Parquet dataset export of one large credit log against the cold index of the same log, as
 * a user runs them: `rlrb report` with no saved index (the baseline: the cold index), then
 * `rlrb export --dataset` from the saved index (the export's own work), both with the default
 * `--threads` (the cores the load leaves free), in rounds (the two in the same minutes; the
 * saved index removed before each report), and the export with `--threads 2` whatever the load
 * (the default takes one thread on a busy machine). Each in wall time, CPU time (user + sys of the
 * process and its workers, from /usr/bin/time) and peak RSS; medians and spread over the rounds.
 * Targets: the export at least at the cold index's speed, as a user waits: the wall ratio >= 1
 * (the CPU ratio is shown beside it: on a shared machine the wall time depends on the others'
 * load); under 500 MB. `RLRB_BENCH_BYTES` (1 GB), `RLRB_BENCH_ROUNDS` (3).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeDemo } from '../src/core/demo/demo';
import { recordResults } from './common';

const BYTES = Number(process.env['RLRB_BENCH_BYTES'] ?? 1e9);
const ROUNDS = Number(process.env['RLRB_BENCH_ROUNDS'] ?? 3);
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

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
/** `median (min-max)` of `xs`, in `unit`, `digits` after the point. */
const spread = (xs: readonly number[], digits: number, unit = ''): string =>
  `${median(xs).toFixed(digits)}${unit} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

function main(): void {
  if (!existsSync(TIME)) throw new Error(`${TIME} is needed (Debian: apt-get install time)`);
  const dir = mkdtempSync(join(tmpdir(), 'rlrb-bench-dataset-'));
  try {
    const run = join(dir, 'run');
    const { creditLog } = writeDemo(run, { trajectories: Math.ceil(BYTES / 2130), hubRepo: false, baseline: false });
    const mb = statSync(creditLog).size / 1e6;
    const loads: string[] = [];
    const index: Cost[] = [];
    const exp: Cost[] = [];
    // the export on two threads whatever the load (the default takes one on a busy machine)
    const two: Cost[] = [];
    for (let k = 0; k < ROUNDS; k++) {
      const cache = join(dir, `cache-${k}`);
      loads.push(load());
      index.push(measured(cache, ['report', run, '--json']));
      exp.push(measured(cache, ['export', run, '--dataset', join(dir, `dataset-${k}`)]));
      rmSync(join(dir, `dataset-${k}`), { recursive: true, force: true });
      two.push(measured(cache, ['export', run, '--dataset', join(dir, `dataset-${k}`), '--threads', '2']));
      rmSync(join(dir, `dataset-${k}`), { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
    loads.push(load());
    // each round's ratio (the two in the same minutes), then their median
    const ratios = (cs: Cost[]): string =>
      `${spread(
        index.map((c, k) => c.wall / cs[k]!.wall),
        2,
        'x',
      )} / ${spread(
        index.map((c, k) => c.cpu / cs[k]!.cpu),
        2,
        'x',
      )}`;
    const wall = index.map((c, k) => c.wall / exp[k]!.wall);
    const row = (what: string, cs: Cost[], ratio: string): string =>
      `| ${what} | ${spread(
        cs.map((c) => c.wall / 1000),
        1,
        ' s',
      )} | ${spread(
        cs.map((c) => c.cpu / 1000),
        1,
        ' s',
      )} | ${spread(
        cs.map((c) => mb / (c.cpu / 1000)),
        1,
      )} | ${spread(
        cs.map((c) => c.rssMb),
        0,
        ' MB',
      )} | ${ratio} |`;
    const rss = Math.max(...exp.map((c) => c.rssMb), ...two.map((c) => c.rssMb));
    recordResults('Dataset export', [
      `A ${mb.toFixed(0)} MB credit log (the demo's generator), ${ROUNDS} rounds of the cold index then the export, default \`--threads\`; median (min-max). Load average (1, 5, 15 min) before each round and after the last: ${loads.join('; ')} (2 shared cores).`,
      '',
      "The goal's figure is the wall ratio: the export's speed as a user waits for it, against the cold index's; the CPU ratio is shown beside it because the machine is shared (the wall time depends on how many cores the others leave).",
      '',
      '| | wall | CPU (user + sys) | MB/s of CPU | peak RSS | ratio: wall / CPU |',
      '| --- | --- | --- | --- | --- | --- |',
      row('baseline: the cold index (`rlrb report`, no saved index)', index, '1 / 1'),
      row('`rlrb export --dataset` (from the saved index)', exp, ratios(exp)),
      row('`rlrb export --dataset --threads 2`', two, ratios(two)),
      '',
      `Export speed at least the cold index's (median wall ratio, default \`--threads\`, >= 1): ${median(wall) >= 1 ? 'PASS' : 'FAIL'}; memory under 500 MB (the largest peak): ${rss < 500 ? 'PASS' : 'FAIL'}.`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
