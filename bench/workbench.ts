/**
 * The panels in the real workbench (code-server + Debian's Chromium, the packaged VSIX):
 * from the command to the first painted frame with the panel's content, on the demo run
 * and on a 500,000-trajectory run, next to the bare-page figures of bench/webview.ts
 * measured in the same run. Every time is read inside the pages (see workbench/probe.ts).
 * `RLRB_BENCH_RUNS` sets the runs per figure (default 9); `RLRB_BENCH_RETAIN=1` adds the
 * retainContextWhenHidden experiment (two more workbenches: about four minutes more here).
 * While working on one panel: `RLRB_BENCH_ONLY=dashboard,report` times only those figures
 * (keys of FIGURES, or of workbench/floor.ts FLOORS), `RLRB_BENCH_SETS=demo` only the demo
 * run (or `big`). On the demo run each cycle also opens the workbench floor's panels
 * (workbench/floor.ts): what the workbench costs before our code runs.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { recordResults } from './common';
import { armFrame } from './workbench/probe';
import { closeAll, openWindow, palette, seenAfter, startWorkbench, until } from './workbench/session';
import type { Workbench } from './workbench/session';
import { breakdown, chromiumPssMb } from './workbench/breakdown';
import type { Breakdown } from './workbench/breakdown';
import { FLOORS, floorLines, floorVsix, ourPartAt } from './workbench/floor';
import type { FloorKey } from './workbench/floor';
import { stats } from './workbench/stats';

const RUNS = Number(process.env['RLRB_BENCH_RUNS'] ?? 9);
const list = (v: string | undefined): Set<string> | undefined => (v ? new Set(v.split(',').map((x) => x.trim())) : undefined);
const ONLY = list(process.env['RLRB_BENCH_ONLY']);
const SETS = list(process.env['RLRB_BENCH_SETS']);
const wanted = (f: string): boolean => !ONLY || ONLY.has(f);
const WORK = resolve('bench', 'data', 'workbench');
const VSIX = resolve('dist', 'rl-run-browser.vsix');

type Figure = 'dashboard' | 'browser' | 'trajectory' | 'report' | 'chart' | 'tab' | 'chartAgain' | 'compare' | 'task' | 'taskAgain';
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
    spans: 'pointerdown on the hidden dashboard’s tab → first frame painted after its retained iframe is visible again',
    target: 300,
    bare: 'dashboard, 45 metrics x 2,000 iterations',
  },
  {
    key: 'chartAgain',
    name: 'chart click → rows, the browser open behind (another ws/c_mean point)',
    spans:
      'pointerdown on the chart after the tab back → first painted frame of the retained trajectory browser, visible again, with the new jump label',
    target: 300,
    bare: 'trajectory table, 500,000 rows',
  },
  {
    key: 'compare',
    name: 'comparison panel (Compare Two Runs…)',
    spans: 'Enter on the second pick (run B) → first painted frame with the figures table',
    target: 700,
    bare: 'baseline: the page with no data',
  },
  {
    key: 'task',
    name: 'comparison → task view (a task row’s click)',
    spans: 'pointerdown on a task row of the comparison → first painted frame of the (new) task view with the runs’ groups',
    target: 700,
    bare: '',
  },
  {
    key: 'taskAgain',
    name: 'comparison → task view, the task view open behind (another task row)',
    spans:
      'pointerdown on another task row after the tab back → first painted frame of the reused task view, visible again, with that task',
    target: 300,
    bare: '',
  },
];
/** The journeys that open one panel from another: a new webview (the first jump), then the open one reused (the next). */
const REUSE: { name: string; fresh: Figure; reused: Figure }[] = [
  { name: 'dashboard chart → trajectory browser', fresh: 'chart', reused: 'chartAgain' },
  { name: 'comparison task row → task view', fresh: 'task', reused: 'taskAgain' },
];

type Samples = Record<Figure | FloorKey, number[]>;
const empty = (): Samples => ({
  dashboard: [],
  browser: [],
  trajectory: [],
  report: [],
  chart: [],
  tab: [],
  chartAgain: [],
  compare: [],
  task: [],
  taskAgain: [],
  floorStatic: [],
  floorScript: [],
  floorMessage: [],
});
/** Each panel's breakdowns (see workbench/breakdown.ts), by the figure that opened it. */
type Notes = Map<string, Breakdown[]>;
const note = (notes: Notes, key: string, b: Breakdown): void => void notes.set(key, [...(notes.get(key) ?? []), b]);

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
async function timedCommand(page: Page, title: string, check: string, folder: string): Promise<{ ms: number; frame: Frame; b: Breakdown }> {
  const t0 = await command(page, title, folder);
  const { frame, t1 } = await seenAfter(page, check, t0);
  return { ms: t1 - t0, frame, b: await breakdown(page, frame, t0, t1) };
}

/** Picks the run whose root is exactly `root` in the open quick pick (a run's root is a prefix of its baseline's); with `arm`, times the Enter. */
async function pickRoot(page: Page, root: string, arm: boolean): Promise<void> {
  await page.locator('.quick-input-widget input').fill('');
  const focused = page.locator('.quick-input-list .monaco-list-row.focused .label-description');
  await focused.first().waitFor({ timeout: 15_000 });
  for (let n = 0; (await focused.first().textContent()) !== root; n++) {
    if (n > 10) throw new Error(`no pick for ${root}`);
    await page.keyboard.press('ArrowDown');
  }
  if (arm) await page.evaluate('window.__rlrbArm()');
  await page.keyboard.press('Enter');
}

const enterTime = (page: Page): Promise<number> =>
  until(async () => (await page.evaluate<number>('window.__rlrbT0')) || undefined, 'the Enter keydown');

/** Runs a palette command on `folder`'s run; the page's time of the last Enter (the run's pick when the window has two runs). */
async function command(page: Page, title: string, folder: string): Promise<number> {
  const t0 = await palette(page, title);
  if (!existsSync(join(folder, 'baseline'))) return t0;
  await pickRoot(page, folder, true);
  return enterTime(page);
}

/** Runs Compare Two Runs… from the palette on `a` and `b`; the page's time of the Enter on the second pick. */
async function pickCompare(page: Page, a: string, b: string): Promise<number> {
  await palette(page, 'RL Runs: Compare Two Runs…');
  await pickRoot(page, a, false);
  await pickRoot(page, b, true);
  return enterTime(page);
}

/** The dashboard, then a chart click to the rows, a row's detail and the tab back, as far as a wanted figure needs. */
async function dashboardChain(wb: Workbench, page: Page, folder: string, s: Samples, k: number, notes: Notes): Promise<void> {
  const chain: Figure[] = ['dashboard', 'chart', 'trajectory', 'tab', 'chartAgain'];
  const last = Math.max(...chain.map((f, i) => (wanted(f) ? i : -1)));
  if (last < 0) return;
  await closeAll(page);
  const dash = await timedCommand(page, 'RL Runs: Open Metrics', 'metrics', folder);
  s.dashboard.push(dash.ms);
  note(notes, 'dashboard', dash.b);
  await tagDashboard(dash.frame);
  if (last < 1) return;
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
  note(notes, 'chart', await breakdown(page, jump.frame, tc, jump.t1));
  if (last < 2) return;
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
  if (last < 3) return;
  // back to the dashboard's tab, hidden since the trajectory browser opened over it (the panels ship retained)
  s.tab.push(await tabBack(page, true));
  if (last < 4) return;
  // another point of the same chart: the browser, retained behind the dashboard, is shown with that point's rows
  await tagFrame(jump.frame, 'browser');
  await jump.frame.evaluate(`window.__rlrbPrevJump = (document.getElementById('jump-label') || {}).textContent || ''`);
  wb.marks.delete('click');
  await dash.frame.evaluate(
    `addEventListener('pointerdown', () => window.__rlrbMark('click', performance.timeOrigin + performance.now()), { capture: true, once: true })`,
  );
  await watchShown(page, 'browser');
  await canvas.click({ position: { x: box.width * (k % 2 === 0 ? 0.3 : 0.7), y: box.height * 0.5 } });
  const ta = await until(async () => wb.marks.get('click'), 'the second chart click');
  const again = await seenAfter(page, 'jumpAgain', ta);
  const shown = await until(async () => (await page.evaluate<number>('window.__rlrbShown')) || undefined, 'the retained browser shown');
  s.chartAgain.push(Math.max(again.t1, shown) - ta);
}

/** Makes the next pointerdown in `frame` report its time to Node as the mark 'click'. */
async function armClick(wb: Workbench, frame: Frame): Promise<void> {
  wb.marks.delete('click');
  await frame.evaluate(
    `addEventListener('pointerdown', () => window.__rlrbMark('click', performance.timeOrigin + performance.now()), { capture: true, once: true })`,
  );
}

/**
 * From the comparison just opened: a task row's click to a new task view, then (after the tab
 * back to the comparison, not timed) another row's click to that task view reused.
 */
async function compareTaskChain(wb: Workbench, page: Page, cmp: Frame, s: Samples, k: number, notes: Notes): Promise<void> {
  const rows = cmp.locator('.task-spacer .task-row');
  await rows.nth(2).waitFor({ timeout: 30_000 });
  await armClick(wb, cmp);
  await rows.nth(k % 2).click();
  const tc = await until(async () => wb.marks.get('click'), 'the task row click');
  const task = await seenAfter(page, 'task', tc);
  s.task.push(task.t1 - tc);
  note(notes, 'task', await breakdown(page, task.frame, tc, task.t1));
  if (!wanted('taskAgain')) return;
  await tagFrame(task.frame, 'task');
  const next = rows.nth(2);
  await task.frame.evaluate(`window.__rlrbNextTask = ${JSON.stringify(await next.getAttribute('data-task'))}`);
  await page.locator('.tabs-container .tab', { hasText: 'Compare:' }).click();
  await next.waitFor({ state: 'visible', timeout: 30_000 });
  await armClick(wb, cmp);
  await watchShown(page, 'task');
  await next.click();
  const ta = await until(async () => wb.marks.get('click'), 'the second task row click');
  const again = await seenAfter(page, 'taskAgain', ta);
  const shown = await until(async () => (await page.evaluate<number>('window.__rlrbShown')) || undefined, 'the reused task view shown');
  s.taskAgain.push(Math.max(again.t1, shown) - ta);
}

/** Each data set's journeys that open one panel from another: a new webview against the open one reused, and the ratio. */
function reuseLines(samples: Map<string, Samples>): string[] {
  const rows: string[] = [];
  for (const [name, s] of samples)
    for (const r of REUSE.filter((x) => s[x.fresh].length > 0 && s[x.reused].length > 0)) {
      const f = stats(s[r.fresh]).med;
      const u = stats(s[r.reused]).med;
      rows.push(`| ${name} | ${r.name} | ${f.toFixed(0)} | ${u.toFixed(0)} | ${(f / u).toFixed(1)}x |`);
    }
  if (rows.length === 0) return [];
  return [
    '**Webview reuse** (the default path of these jumps: the open panel shows the new target; medians of the figures above): the first jump creates the panel’s webview (what every jump cost before an open one was reused), the next reuses it',
    '',
    '| run | journey | new webview (ms) | open webview reused (ms) | ratio |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ];
}

/** Records in `window.__rlrbShown` the first frame painted after the iframe tagged `tag` is visible. */
async function watchShown(page: Page, tag: string): Promise<void> {
  await page.evaluate(`(() => {
    window.__rlrbShown = 0;
    const el = document.querySelector('iframe[data-rlrb="${tag}"]');
    const poll = () => {
      if (el && el.isConnected && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
        requestAnimationFrame(() => setTimeout(() => { window.__rlrbShown = performance.timeOrigin + performance.now(); }, 0));
      else requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  })()`);
}

/** One cycle over every wanted figure (with `floor`, the floor's panels too); each panel's breakdown into `notes`. */
async function cycle(
  wb: Workbench,
  page: Page,
  folder: string,
  s: Samples,
  k: number,
  notes: Notes,
  floor: boolean,
  warm = false,
): Promise<void> {
  await dashboardChain(wb, page, folder, s, k, notes);
  for (const [f, title, check] of [
    ['browser', 'RL Runs: Open Trajectories', 'trajectories'],
    ['report', 'RL Runs: Open Run Report', 'report'],
  ] as const) {
    if (!wanted(f)) continue;
    await closeAll(page);
    const t = await timedCommand(page, title, check, folder);
    s[f].push(t.ms);
    note(notes, f, t.b);
  }
  const baseline = join(folder, 'baseline');
  if (wanted('compare') && existsSync(baseline)) {
    await closeAll(page);
    const t0 = await pickCompare(page, folder, baseline);
    // the warm-up's comparison is the first of these logs: computed (on 500,000 trajectories over a minute, most of it
    // section 7 on the eval episodes, read one by one); every timed one after it is the kept comparison
    const { frame, t1 } = await seenAfter(page, 'compare', t0, warm ? 900_000 : undefined);
    s.compare.push(t1 - t0);
    note(notes, 'compare', await breakdown(page, frame, t0, t1));
    if (wanted('task') || wanted('taskAgain')) await compareTaskChain(wb, page, frame, s, k, notes);
  }
  for (const f of FLOORS.filter((x) => floor && wanted(x.key))) {
    await closeAll(page);
    const t0 = await palette(page, f.title);
    const { frame, t1 } = await seenAfter(page, f.key, t0);
    s[f.key].push(t1 - t0);
    note(notes, f.key, await breakdown(page, frame, t0, t1));
  }
}

function table(title: string, s: Samples, bare: Map<string, number>, runs: number): string[] {
  const lines = [
    `**${title}** (${runs} runs per figure after one warm-up cycle)`,
    '',
    '| figure | spans | median (ms) | min–max (ms) | bare page (ms) | ratio | target (ms) | |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const f of FIGURES.filter((x) => s[x.key].length > 0)) {
    const { med, min, max } = stats(s[f.key]);
    const b = f.bare ? bare.get(f.bare) : undefined;
    const ratio = b ? (med / b).toFixed(2) : 'n/a';
    lines.push(
      `| ${f.name} | ${f.spans} | ${med.toFixed(0)} | ${min.toFixed(0)}–${max.toFixed(0)} | ${b ? `${b.toFixed(0)} (${f.bare})` : 'none'} | ${ratio} | < ${f.target} | ${med < f.target ? 'PASS' : 'FAIL'} |`,
    );
  }
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
async function tabAndMemory(
  page: Page,
  wb: Workbench,
  demo: string,
  runs: number,
  retain: boolean,
): Promise<{ tab: number[]; pss: number[] }> {
  const tab: number[] = [];
  const pss: number[] = [];
  for (let k = 0; k < runs; k++) {
    await closeAll(page);
    const dash = await timedCommand(page, 'RL Runs: Open Metrics', 'metrics', demo);
    await tagDashboard(dash.frame);
    await command(page, 'RL Runs: Open Trajectories', demo);
    await seenAfter(page, 'trajectories', 0);
    await page.waitForTimeout(1500);
    pss.push(chromiumPssMb(wb.profile));
    tab.push(await tabBack(page, retain));
  }
  return { tab, pss };
}

/** Marks the outer iframe of the webview whose inner frame is `inner` (the dashboard), for tabBack. */
async function tagDashboard(inner: Frame): Promise<void> {
  await tagFrame(inner, 'dashboard');
}

/** Tags the workbench's iframe of a webview (the outer frame of `inner`) with `data-rlrb`. */
async function tagFrame(inner: Frame, tag: string): Promise<void> {
  const outer = await inner.parentFrame()?.frameElement();
  await outer?.evaluate((el: { setAttribute: (n: string, v: string) => void }, t: string) => el.setAttribute('data-rlrb', t), tag);
}

/**
 * A click on the hidden dashboard's tab to the first frame with its charts. A retained
 * dashboard keeps its document: then the end is the first frame the workbench paints
 * after it made the dashboard's iframe visible again.
 */
async function tabBack(page: Page, retain: boolean): Promise<number> {
  await watchShown(page, 'dashboard');
  await page.evaluate('window.__rlrbArm()');
  await page.locator('.tabs-container .tab', { hasText: 'Metrics:' }).click();
  const tt = await page.evaluate<number>('window.__rlrbT0');
  const t1 = retain
    ? await until(async () => (await page.evaluate<number>('window.__rlrbShown')) || undefined, 'the retained dashboard shown')
    : (await seenAfter(page, 'metrics', tt)).t1;
  return t1 - tt;
}

async function dataset(
  name: string,
  folder: string,
  wb: Workbench,
  runs: number,
  out: Map<string, Samples>,
  floor: boolean,
): Promise<Notes> {
  console.log(`${name}: opening the window and waiting for the index`);
  const t = Date.now();
  const page = await openWindow(wb, folder);
  console.log(`  indexed after ${((Date.now() - t) / 1000).toFixed(1)} s; warm-up cycle`);
  const notes: Notes = new Map();
  // the warm-up's breakdowns are kept under 'warm-up': its first panel is this browser's first webview
  const warm: Notes = new Map();
  await cycle(wb, page, folder, empty(), 0, warm, floor, true);
  const first = [...warm.values()][0]?.[0];
  if (first) note(notes, 'warm-up', first);
  const s = empty();
  for (let k = 0; k < runs; k++) {
    await cycle(wb, page, folder, s, k + 1, notes, floor);
    const last = [...FIGURES, ...FLOORS].filter((f) => s[f.key].length > 0).map((f) => `${f.key} ${s[f.key].at(-1)!.toFixed(0)} ms`);
    console.log(`  cycle ${k + 1}/${runs}: ${last.join(', ')}`);
  }
  out.set(name, s);
  await page.close();
  return notes;
}

/** The big run's size (`RLRB_BENCH_TRAJECTORIES`, default 500,000): written once per size by `rlrb demo`. */
const BIG = Number(process.env['RLRB_BENCH_TRAJECTORIES'] ?? 500_000);

function ensureData(): { demo: string; big: string } {
  const demo = resolve('bench', 'data', 'demo');
  const big = resolve('bench', 'data', BIG === 500_000 ? 'big' : `big-${BIG}`);
  const gen = (dir: string, extra: string[]): void => {
    if (existsSync(join(dir, 'logs', 'ws_credit_log.jsonl'))) return;
    console.log(`writing ${dir}`);
    const r = spawnSync('node', ['dist/cli.js', 'demo', dir, '--no-hub-repo', ...extra], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`rlrb demo ${dir} failed`);
  };
  if (!SETS || SETS.has('demo')) gen(demo, []);
  if (!SETS || SETS.has('big')) gen(big, ['--trajectories', String(BIG)]);
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
  // the floor does not depend on the run: timed on the demo run only
  const floor = (!SETS || SETS.has('demo')) && FLOORS.some((f) => wanted(f.key)) ? floorVsix(join(WORK, 'floor'), VSIX) : undefined;
  const wb = await startWorkbench(join(WORK, 'run'), ext, VSIX, demo, floor ? [floor.vsix] : []);
  let notes: Notes = new Map();
  const DEMO = 'demo run (10,800 trajectories, 45 iterations)';
  try {
    if (!SETS || SETS.has('demo')) notes = await dataset(DEMO, demo, wb, RUNS, samples, !!floor);
    if (!SETS || SETS.has('big')) {
      const bigNotes = await dataset(`${BIG.toLocaleString('en')}-trajectory run (indexed)`, big, wb, RUNS, samples, false);
      // the big run alone (RLRB_BENCH_SETS=big): its breakdown is the one shown
      if (notes.size === 0) notes = bigNotes;
    }
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
  const demoSamples = samples.get(DEMO);
  if (floor && demoSamples) lines.push(...floorLines(demoSamples, notes, FIGURES, floor.bytes), '');
  if (floor && demoSamples)
    for (const [name, big] of [...samples].filter(([n]) => n !== DEMO)) lines.push(...ourPartAt(name, big, demoSamples, FIGURES), '');
  lines.push(...reuseLines(samples));
  lines.push(...breakdownLines(new Map([...notes].filter(([k]) => k !== 'warm-up'))));
  if (process.env['RLRB_BENCH_RETAIN'] === '1')
    lines.push(
      '',
      ...(await retainExperiment(ext, demo).catch((e: unknown) => [`retainContextWhenHidden experiment failed: ${String(e)}`])),
    );
  recordResults('workbench (code-server 4.100.3 + Chromium, the packaged VSIX)', lines);
}

/** Each panel's steps (rows) by panel (columns): medians over its timed opens, ms from the input that opened it. */
function breakdownLines(notes: Notes): string[] {
  const panels = [...notes.keys()];
  const first = [...notes.values()][0]?.[0];
  if (!first) return [];
  const steps = Object.keys(first) as (keyof Breakdown)[];
  const runs = [...notes.values()].map((n) => n.length);
  return [
    `**Where the time goes** (the first data set; medians over ${Math.min(...runs)} timed opens, ms from the input: the Enter, or the chart click for chart; the busy rows are durations: the workbench’s long tasks within the span)`,
    '',
    `| step | ${panels.join(' | ')} |`,
    `|---|${panels.map(() => '---').join('|')}|`,
    ...steps.map((p) => `| ${p} | ${panels.map((k) => stats(notes.get(k)!.map((n) => n[p])).med.toFixed(0)).join(' | ')} |`),
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
      await tabAndMemory(page, wb, demo, 1, retain);
      res.push({ name, ...(await tabAndMemory(page, wb, demo, runs, retain)) });
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
