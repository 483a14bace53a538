/**
 * The panels in the real workbench (code-server + Debian's Chromium, the packaged VSIX):
 * from the command to the first painted frame with the panel's content, on the demo run
 * and on a 500,000-trajectory run, next to the bare-page figures of bench/webview.ts
 * measured in the same run. Every time is read inside the pages (see workbench/probe.ts).
 * `RLRB_BENCH_RUNS` sets the runs per figure (default 9); `RLRB_BENCH_RETAIN=1` adds the
 * retainContextWhenHidden experiment (two more workbenches: about four minutes more here).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { appendResults } from './common';
import { armFrame } from './workbench/probe';
import { closeAll, openWindow, palette, seenAfter, startWorkbench, until } from './workbench/session';
import type { Workbench } from './workbench/session';
import { breakdown, chromiumPssMb } from './workbench/breakdown';
import type { Breakdown } from './workbench/breakdown';

const RUNS = Number(process.env['RLRB_BENCH_RUNS'] ?? 9);
const WORK = resolve('bench', 'data', 'workbench');
const VSIX = resolve('dist', 'rl-run-browser.vsix');

type Figure = 'dashboard' | 'browser' | 'trajectory' | 'report' | 'chart' | 'tab';
const FIGURES: { key: Figure; name: string; spans: string; target: number; bare: string }[] = [
  {
    key: 'dashboard',
    name: 'dashboard (Open Metrics)',
    spans: 'Enter on the palette row → first painted frame with the first row of charts drawn',
    target: 700,
    bare: 'dashboard, 45 metrics x 2,000 iterations',
  },
  {
    key: 'browser',
    name: 'trajectory browser (Open Trajectories)',
    spans: 'Enter on the palette row → first painted frame with table rows',
    target: 700,
    bare: 'trajectory table, 500,000 rows',
  },
  {
    key: 'trajectory',
    name: 'one trajectory (row click)',
    spans: 'pointerdown on a row → first painted frame with that trajectory’s title in the detail pane',
    target: 150,
    bare: '',
  },
  {
    key: 'report',
    name: 'run report (Open Run Report)',
    spans: 'Enter on the palette row → first painted frame with the report’s figure rows',
    target: 700,
    bare: 'baseline: the page with no data',
  },
  {
    key: 'chart',
    name: 'chart click → rows (ws/c_mean point)',
    spans: 'pointerdown on the chart → first painted frame of the (new) trajectory browser with rows and the jump label',
    target: 300,
    bare: 'trajectory table, 500,000 rows',
  },
  {
    key: 'tab',
    name: 'tab switch back (Metrics tab)',
    spans: 'pointerdown on the hidden dashboard’s tab → first painted frame with the first row of charts again',
    target: 300,
    bare: 'dashboard, 45 metrics x 2,000 iterations',
  },
];

type Samples = Record<Figure, number[]>;
const empty = (): Samples => ({ dashboard: [], browser: [], trajectory: [], report: [], chart: [], tab: [] });

function stats(xs: number[]): { med: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { med: s[s.length >> 1] ?? NaN, min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN };
}

/** The bare-page figures: bench/webview.js run as a child in this run; its table parsed. */
function barePage(): Map<string, number> {
  const r = spawnSync('node', ['--expose-gc', 'build/bench/webview.js'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench/webview failed: ${r.stderr}`);
  const out = new Map<string, number>();
  for (const line of r.stdout.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const ms = Number(cells[4]);
    if (cells.length >= 6 && cells[1] && Number.isFinite(ms) && cells[4] !== '') out.set(cells[1], ms);
  }
  return out;
}

/** Times a palette command to the panel's first content; the frame with that content. */
async function timedCommand(page: Page, title: string, check: string): Promise<{ ms: number; frame: Frame; b: Breakdown }> {
  const t0 = await palette(page, title);
  const { frame, t1 } = await seenAfter(page, check, t0);
  return { ms: t1 - t0, frame, b: await breakdown(page, frame, t0, t1) };
}

/** One cycle over every figure; the dashboard's breakdown for the slowest-figure report. */
async function cycle(wb: Workbench, page: Page, s: Samples, k: number, notes: Breakdown[]): Promise<void> {
  await closeAll(page);
  const dash = await timedCommand(page, 'RL Runs: Open Metrics', 'metrics');
  s.dashboard.push(dash.ms);
  notes.push(dash.b);
  // the ws/c_mean chart in view and drawn (not timed), then a click on its middle
  const card = dash.frame.locator('.chart-card[data-metric="ws/c_mean"]');
  await card.scrollIntoViewIfNeeded();
  const canvas = dash.frame.locator('.chart-card[data-metric="ws/c_mean"][data-drawn="true"] canvas');
  await canvas.waitFor({ timeout: 30_000 });
  // the click hides the dashboard (its document goes): the page reports the time to Node
  wb.marks.delete('click');
  await dash.frame.evaluate(
    `addEventListener('pointerdown', () => window.__rlrbMark('click', performance.timeOrigin + performance.now()), { capture: true, once: true })`,
  );
  const box = (await canvas.boundingBox())!;
  await canvas.click({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
  const tc = await until(async () => wb.marks.get('click'), 'the chart click');
  const jump = await seenAfter(page, 'jump', tc);
  s.chart.push(jump.t1 - tc);
  // a row of the jump's rows, then its detail
  const row = jump.frame.locator('.trow').nth(k % 5);
  const key = (await row.getAttribute('data-key'))!;
  const [it, g, r] = key.split('/');
  const title = `iteration ${it} · group ${g} · rollout ${r}`;
  await jump.frame.evaluate(
    armFrame(`((document.getElementById('detail-title') || {}).textContent || '').includes(${JSON.stringify(title)})`),
  );
  await row.click();
  const one = await until(async () => {
    const o = await jump.frame.evaluate<{ t0: number; t1: number }>('window.__rlrbOne');
    return o.t1 ? o : undefined;
  }, 'the trajectory detail');
  s.trajectory.push(one.t1 - one.t0);
  // back to the dashboard's tab, hidden since the trajectory browser opened over it
  await page.evaluate('window.__rlrbArm()');
  await page.locator('.tabs-container .tab', { hasText: 'Metrics:' }).click();
  const tt = await page.evaluate<number>('window.__rlrbT0');
  s.tab.push((await seenAfter(page, 'metrics', tt)).t1 - tt);
  await closeAll(page);
  s.browser.push((await timedCommand(page, 'RL Runs: Open Trajectories', 'trajectories')).ms);
  await closeAll(page);
  s.report.push((await timedCommand(page, 'RL Runs: Open Run Report', 'report')).ms);
}

function table(title: string, s: Samples, bare: Map<string, number>, runs: number): string[] {
  const lines = [
    `**${title}** (${runs} runs per figure after one warm-up cycle)`,
    '',
    '| figure | spans | median (ms) | min–max (ms) | bare page (ms) | ratio | target (ms) | |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const f of FIGURES) {
    const { med, min, max } = stats(s[f.key]);
    const b = f.bare ? bare.get(f.bare) : undefined;
    const ratio = b ? (med / b).toFixed(2) : 'n/a';
    lines.push(
      `| ${f.name} | ${f.spans} | ${med.toFixed(0)} | ${min.toFixed(0)}–${max.toFixed(0)} | ${b ? `${b.toFixed(0)} (${f.bare})` : 'none'} | ${ratio} | < ${f.target} | ${med < f.target ? 'PASS' : 'FAIL'} |`,
    );
  }
  lines.push('| comparison panel | — | not built yet | | | | < 700 | |');
  return lines;
}

/** A copy of the installed extension with `retainContextWhenHidden` on every panel (never committed). */
function retainedCopy(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const dir = readdirSync(to).find((d) => d.startsWith('rl-run-browser.'));
  if (!dir) throw new Error(`no installed extension in ${to}`);
  const file = join(to, dir, 'dist', 'extension.js');
  const src = readFileSync(file, 'utf8');
  const patched = src.replace(/enableScripts:!0/g, 'enableScripts:!0,retainContextWhenHidden:!0');
  if (patched === src) throw new Error('could not find enableScripts in the built extension to patch');
  writeFileSync(file, patched);
}

/**
 * Tab switch back and the browser's memory with the dashboard hidden, on one window. A
 * retained dashboard keeps its document: then the end is the first frame the workbench
 * paints after it made the dashboard's iframe visible again.
 */
async function tabAndMemory(page: Page, wb: Workbench, runs: number, retain: boolean): Promise<{ tab: number[]; pss: number[] }> {
  const tab: number[] = [];
  const pss: number[] = [];
  for (let k = 0; k < runs; k++) {
    await closeAll(page);
    const dash = await timedCommand(page, 'RL Runs: Open Metrics', 'metrics');
    const outer = await dash.frame.parentFrame()?.frameElement();
    await outer?.evaluate((el: { setAttribute: (n: string, v: string) => void }) => el.setAttribute('data-rlrb', 'dashboard'));
    await palette(page, 'RL Runs: Open Trajectories');
    await seenAfter(page, 'trajectories', 0);
    await page.waitForTimeout(1500);
    pss.push(chromiumPssMb(wb.profile));
    await page.evaluate(`(() => {
      window.__rlrbShown = 0;
      const el = document.querySelector('iframe[data-rlrb="dashboard"]');
      const poll = () => {
        if (el && el.isConnected && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
          requestAnimationFrame(() => setTimeout(() => { window.__rlrbShown = performance.timeOrigin + performance.now(); }, 0));
        else requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    })()`);
    await page.evaluate('window.__rlrbArm()');
    await page.locator('.tabs-container .tab', { hasText: 'Metrics:' }).click();
    const tt = await page.evaluate<number>('window.__rlrbT0');
    const t1 = retain
      ? await until(async () => (await page.evaluate<number>('window.__rlrbShown')) || undefined, 'the retained dashboard shown')
      : (await seenAfter(page, 'metrics', tt)).t1;
    tab.push(t1 - tt);
  }
  return { tab, pss };
}

async function dataset(name: string, folder: string, wb: Workbench, runs: number, out: Map<string, Samples>): Promise<Breakdown[]> {
  console.log(`${name}: opening the window and waiting for the index`);
  const t = Date.now();
  const page = await openWindow(wb, folder);
  console.log(`  indexed after ${((Date.now() - t) / 1000).toFixed(1)} s; warm-up cycle`);
  const notes: Breakdown[] = [];
  await cycle(wb, page, empty(), 0, []);
  const s = empty();
  for (let k = 0; k < runs; k++) {
    await cycle(wb, page, s, k + 1, notes);
    console.log(`  cycle ${k + 1}/${runs}: dashboard ${s.dashboard.at(-1)!.toFixed(0)} ms, tab ${s.tab.at(-1)!.toFixed(0)} ms`);
  }
  out.set(name, s);
  await page.close();
  return notes;
}

function ensureData(): { demo: string; big: string } {
  const demo = resolve('bench', 'data', 'demo');
  const big = resolve('bench', 'data', 'big');
  const gen = (dir: string, extra: string[]): void => {
    if (existsSync(join(dir, 'logs', 'ws_credit_log.jsonl'))) return;
    console.log(`writing ${dir}`);
    const r = spawnSync('node', ['dist/cli.js', 'demo', dir, '--no-hub-repo', ...extra], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`rlrb demo ${dir} failed`);
  };
  gen(demo, []);
  gen(big, ['--trajectories', '500000']);
  return { demo, big };
}

async function main(): Promise<void> {
  if (!existsSync(VSIX)) throw new Error('dist/rl-run-browser.vsix is missing: npm run package (scripts/bench.mjs workbench does it)');
  const { demo, big } = ensureData();
  const load0 = loadavg();
  console.log('bare pages (bench/webview) first, in this run');
  // RLRB_BENCH_SKIP_BARE=1 (while working on this harness only): no bare-page figures, no ratios
  const bare = process.env['RLRB_BENCH_SKIP_BARE'] === '1' ? new Map<string, number>() : barePage();
  const samples = new Map<string, Samples>();
  const ext = join(WORK, 'extensions');
  const wb = await startWorkbench(join(WORK, 'run'), ext, VSIX, demo);
  let notes: Breakdown[] = [];
  try {
    notes = await dataset('demo run (10,800 trajectories, 45 iterations)', demo, wb, RUNS, samples);
    await dataset('500,000-trajectory run (indexed)', big, wb, RUNS, samples);
  } finally {
    await wb.close();
  }
  const lines: string[] = [];
  const load1 = loadavg();
  lines.push(
    `Load average ${load0.map((l) => l.toFixed(1)).join(' ')} at the start, ${load1.map((l) => l.toFixed(1)).join(' ')} at the end (2 cores shared with other work: the figures are inflated by it).`,
    'Times are read inside the pages (`performance.timeOrigin + now()`): the start in the document that got the input (the workbench, or the webview for a click in it), the end in the webview’s inner frame at the first frame painted after the content exists there (rAF, then a task) while that frame is the visible active one. Bare page: bench/webview.ts, run as a child process at the start of this run (its own section above); a panel with no bare-page case of its own is divided by the page with no data.',
    '',
  );
  for (const [name, s] of samples) lines.push(...table(name, s, bare, RUNS), '');
  lines.push(...breakdownLines(notes));
  if (process.env['RLRB_BENCH_RETAIN'] === '1')
    lines.push(
      '',
      ...(await retainExperiment(ext, demo).catch((e: unknown) => [`retainContextWhenHidden experiment failed: ${String(e)}`])),
    );
  appendResults('workbench (code-server 4.100.3 + Chromium, the packaged VSIX)', lines);
}

function breakdownLines(notes: Breakdown[]): string[] {
  const parts = Object.keys(notes[0] ?? {}) as (keyof Breakdown)[];
  return [
    `**Where the dashboard's time goes** (demo run; medians over the ${notes.length} timed opens, ms from the Enter)`,
    '',
    `| ${parts.join(' | ')} |`,
    `|${parts.map(() => '---').join('|')}|`,
    `| ${parts.map((p) => stats(notes.map((n) => n[p])).med.toFixed(0)).join(' | ')} |`,
  ];
}

async function retainExperiment(ext: string, demo: string): Promise<string[]> {
  const runs = RUNS;
  const res: { name: string; tab: number[]; pss: number[] }[] = [];
  for (const [name, retain] of [
    ['as shipped', false],
    ['retainContextWhenHidden: true (patched copy of dist/extension.js)', true],
  ] as const) {
    const dir = join(WORK, retain ? 'extensions-retain' : 'extensions');
    if (retain) retainedCopy(ext, dir);
    const wb = await startWorkbench(join(WORK, retain ? 'retain' : 'plain'), dir, undefined, demo);
    try {
      const page = await openWindow(wb, demo);
      await tabAndMemory(page, wb, 1, retain);
      res.push({ name, ...(await tabAndMemory(page, wb, runs, retain)) });
    } finally {
      await wb.close();
    }
  }
  return [
    `**retainContextWhenHidden** (demo run, a fresh workbench each, ${runs} runs): the tab switch back to a hidden dashboard, and the browser's memory (PSS of all its processes) with the dashboard hidden behind the trajectory browser`,
    '',
    '| extension | tab switch back, median (min–max) ms | browser PSS, median MB |',
    '|---|---|---|',
    ...res.map((r) => {
      const t = stats(r.tab);
      return `| ${r.name} | ${t.med.toFixed(0)} (${t.min.toFixed(0)}–${t.max.toFixed(0)}) | ${stats(r.pss).med.toFixed(0)} |`;
    }),
  ];
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
