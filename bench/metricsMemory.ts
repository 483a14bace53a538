/**
 * Memory of the metrics index, each case in its own process (peak RSS is per process):
 * what `rlrb report` and the dashboard do with a metrics log (index it, the table, the
 * training curve, the duplicates and non-finite checks, the charts a dashboard sends).
 * Baseline: the demo's metrics log (45 metrics, 45 iterations) in the same run. Cases:
 * 20,000 and 100,000 distinct metrics one a line (the sparse store), and a generated
 * ~720 MB log of 12 M rows read locally and in place from the Hub emulator (streamed).
 * The large log is asked the report's questions (index, training curve, checks) locally and
 * in place, then the dashboard's charts too (locally). RLRB_BENCH_METRICS_BYTES sets its size
 * (0 leaves it out).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemo } from '../src/core/demo/demo';
import { MetricsIndex } from '../src/core/log/metricsIndex';
import type { MetricsTable } from '../src/core/log/metricsIndex';
import { IndexStore } from '../src/core/log/indexStore';
import { HubRun } from '../src/core/hub/inPlace/hubRun';
import { RangeCache } from '../src/core/hub/inPlace/rangeCache';
import { trainingCurve } from '../src/core/report/report';
import { chartSelection } from '../src/extension/metrics/chartCap';
import { seriesViews } from '../src/extension/metrics/seriesViews';
import { recordResults, peakRssMb } from './common';

const BIG_BYTES = Number(process.env['RLRB_BENCH_METRICS_BYTES'] ?? 7.2e8);
const data = join('bench', 'data', 'metrics');
const REPO = 'bench/big-metrics';

interface Figures {
  rssMb: number;
  heapMb: number;
  ms: number;
  rows: number;
  metrics: number;
  charted: number;
}

/** What `rlrb report` asks of the index, and with `charts` what a dashboard asks too. */
function use(m: MetricsIndex, t: MetricsTable, charts: boolean): number {
  trainingCurve(t, []);
  m.duplicates();
  m.nonFinite();
  if (!charts) return 0;
  const pick = chartSelection(t.names, []);
  return seriesViews(t, 600, pick.names).length;
}

async function child(kind: string, path: string, charts: boolean): Promise<Figures> {
  const t0 = performance.now();
  let m: MetricsIndex;
  let emu: ReturnType<typeof spawn> | undefined;
  const work = mkdtempSync(join(tmpdir(), 'rlrb-bench-metrics-'));
  try {
    if (kind === 'inplace') {
      emu = spawn('node', ['dist/emulator.js', '--repo', `${REPO}=${path}`], { stdio: ['ignore', 'pipe', 'inherit'] });
      const endpoint = await new Promise<string>((res) =>
        emu!.stdout!.on('data', (c: Buffer) => {
          const x = /(http:\/\/127\.0\.0\.1:\d+)/.exec(c.toString());
          if (x) res(x[1]!);
        }),
      );
      const o = { conn: { endpoint }, store: new IndexStore(join(work, 'index')), cache: new RangeCache(join(work, 'ranges')) };
      m = (await HubRun.open({ repo: REPO, revision: 'main' }, o)).run.metrics!;
    } else {
      m = new MetricsIndex(path);
      await m.update();
    }
    const t = m.getTable();
    const charted = use(m, t, charts);
    globalThis.gc?.();
    const heapMb = process.memoryUsage().heapUsed / 1e6;
    return { rssMb: peakRssMb(), heapMb, ms: performance.now() - t0, rows: m.rowCount, metrics: t.names.length, charted };
  } finally {
    emu?.kill();
    rmSync(work, { recursive: true, force: true });
  }
}

function keysLog(n: number): string {
  const p = join(data, `keys-${n}.jsonl`);
  if (!existsSync(p)) {
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`{"iteration": ${i}, "m/key_${i}": ${(i % 97) / 97}}\n`);
    writeFileSync(p, lines.join(''));
  }
  return p;
}

/** ~BIG_BYTES of rows of two metrics each (12 M rows for 720 MB), in a folder the emulator serves as a repo. */
async function bigLog(): Promise<string> {
  const repo = join(data, `big-${BIG_BYTES}`);
  const p = join(repo, 'logs', 'ws_metrics.jsonl');
  if (existsSync(p) && statSync(p).size >= BIG_BYTES * 0.98) return repo;
  mkdirSync(join(repo, 'logs'), { recursive: true });
  console.log(`generating a ${(BIG_BYTES / 1e6).toFixed(0)} MB metrics log in ${repo} ...`);
  const out = createWriteStream(p);
  let bytes = 0;
  for (let i = 0; bytes < BIG_BYTES; i++) {
    const parts: string[] = [];
    for (let k = 0; k < 10_000; k++, i++) {
      const line = `{"iteration":${i},"ws/reward_mean":${((i % 1000) / 1000).toFixed(4)},"train/loss":${(1 / (1 + (i % 5000))).toFixed(5)}}\n`;
      parts.push(line);
      bytes += line.length;
    }
    if (!out.write(parts.join(''))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(r));
  return repo;
}

function runCase(kind: string, path: string, charts = true): Figures {
  const r = spawnSync('node', ['--expose-gc', process.argv[1]!, '--case', kind, path, charts ? 'charts' : 'report'], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`case ${kind} ${path} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(last) as Figures;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--case');
  if (i > 0) {
    console.log(JSON.stringify(await child(process.argv[i + 1]!, process.argv[i + 2]!, process.argv[i + 3] === 'charts')));
    return;
  }
  mkdirSync(data, { recursive: true });
  const demoDir = join(data, 'demo');
  if (!existsSync(join(demoDir, 'logs', 'ws_metrics.jsonl'))) writeDemo(demoDir, { hubRepo: false, baseline: false });
  const base = runCase('local', join(demoDir, 'logs', 'ws_metrics.jsonl'));
  const line = (name: string, f: Figures): string =>
    `${name}: peak RSS ${f.rssMb.toFixed(0)} MB (${(f.rssMb / base.rssMb).toFixed(2)}x the demo), heap after ${f.heapMb.toFixed(0)} MB, ${(f.ms / 1000).toFixed(1)} s; ${f.rows} rows, ${f.metrics} metrics, ${f.charted} charted`;
  const lines = [line('demo metrics log (baseline, 45 metrics)', base)];
  for (const n of [20_000, 100_000])
    lines.push(line(`${n} metrics, one a line (goal for 100,000: under 300 MB)`, runCase('local', keysLog(n))));
  if (BIG_BYTES > 0) {
    const repo = await bigLog();
    const size = statSync(join(repo, 'logs', 'ws_metrics.jsonl')).size;
    const mb = (size / 1e6).toFixed(0);
    const big = join(repo, 'logs', 'ws_metrics.jsonl');
    lines.push(line(`${mb} MB metrics log, local, the report's questions (goal: under 500 MB)`, runCase('local', big, false)));
    lines.push(
      line(
        `${mb} MB metrics log, in place from the emulator, the report's questions (goal: under 500 MB)`,
        runCase('inplace', repo, false),
      ),
    );
    lines.push(line(`${mb} MB metrics log, local, with the dashboard's charts too`, runCase('local', big)));
  }
  recordResults('Metrics index memory', lines);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
