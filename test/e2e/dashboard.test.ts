// NOT YET IN THE SUITE (scripts/e2e.mjs does not run it): its journeys D1-D4 fail at their
// first step, where the palette does not offer "RL Runs: Open Metrics" in this file's own
// window (the extension not yet active there); D5 passes. Left for the next session.
/**
 * End-to-end journeys of the metrics dashboard and the run report in a real VS Code
 * (code-server) driven by Chromium; the setup is journeys.test.ts's. Screenshots go to
 * test-results/e2e/dashboard-*.png.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page, FrameLocator } from 'playwright-core';

const ROOT = resolve('.');
const WORK = resolve('.cache', 'e2e-dashboard');
const SHOTS = resolve('test-results', 'e2e');
const REPO = 'XunmeiLiu/openwebrl-ws-credit-beta0.4';
const CODE_SERVER = resolve('.cache', 'code-server-4.100.3', 'node_modules', '.bin', 'code-server');
let emu: ChildProcess | undefined;
let cs: ChildProcess | undefined;
let ctx: BrowserContext | undefined;
let page: Page;
let emuUrl = '';
let run = '';
let step = 0;

async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => res(p));
    });
  });
}

async function shot(name: string): Promise<void> {
  step++;
  await page.screenshot({ path: join(SHOTS, `dash-${String(step).padStart(2, '0')}-${name}.png`) });
}

/** The document of the visible webview panel. */
function webview(): FrameLocator {
  return page.frameLocator('iframe.webview.ready:visible').frameLocator('#active-frame');
}

async function command(title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first().click();
}

/** A journey: on failure, a screenshot of what the user saw. */
function journey(name: string, fn: () => Promise<void>): void {
  test(name, async () => {
    try {
      await fn();
    } catch (e) {
      await page.screenshot({ path: join(SHOTS, `FAILED-${name.slice(0, 2).replace(/\W/g, '')}.png`) }).catch(() => undefined);
      throw e;
    }
  });
}

before(async () => {
  if (!existsSync('/usr/bin/chromium'))
    throw new Error('Chromium is missing: run `npm run setup` (apt-get install chromium), or run only the unit tests: npm run test:unit');
  if (!existsSync(CODE_SERVER)) throw new Error('code-server is missing: run `npm run setup` (node scripts/codeServer.mjs install)');
  rmSync(WORK, { recursive: true, force: true });

  mkdirSync(SHOTS, { recursive: true });
  run = join(WORK, 'run');
  const demo = spawnSync('node', ['dist/cli.js', 'demo', run, '--no-baseline'], { encoding: 'utf8' });
  assert.equal(demo.status, 0, demo.stderr);
  // gaps for the charts' notes: a metric with no value at all, and one that is NaN on 12 of 45 rows
  const mpath = join(run, 'logs', 'ws_metrics.jsonl');
  const lines = readFileSync(mpath, 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const out = lines.map((l, k) => {
    // the demo writes Python's NaN already: edit the text, never JSON.parse it
    const t = l.replace(/^\{/, '{"ws/broken_metric_with_a_rather_long_name_that_must_wrap":null,');
    return k % 4 === 0 ? t.replace(/("ws\/truncation_rate":)[^,}]+/, '$1NaN') : t;
  });
  writeFileSync(mpath, out.join('\n') + '\n');
  const emuPort = await freePort();
  emu = spawn('node', ['dist/emulator.js', '--repo', `${REPO}=${join(run, '.hub-repo')}`, '--port', String(emuPort)], { stdio: 'ignore' });
  emuUrl = `http://127.0.0.1:${emuPort}`;
  const port = await freePort();
  const { startCodeServer } = (await import(join(ROOT, 'scripts', 'codeServer.mjs'))) as {
    startCodeServer: (o: Record<string, unknown>) => Promise<ChildProcess>;
  };
  cs = await startCodeServer({
    port,
    userData: join(WORK, 'user'),
    extensionsDir: join(WORK, 'extensions'),
    folder: run,
    vsix: resolve('dist', 'rl-run-browser.vsix'),
    settings: {
      'rlRunBrowser.endpoint': emuUrl,
      'rlRunBrowser.repos': [REPO],
      'rlRunBrowser.downloadDestination': join(WORK, 'downloads'),
      'workbench.colorTheme': 'Default Dark Modern',
    },
  });
  ctx = await chromium.launchPersistentContext(join(WORK, 'chromium'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1600, height: 1000 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  page = ctx.pages()[0] ?? (await ctx.newPage());
  page.on('dialog', (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(run)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
});

after(async () => {
  await ctx?.close().catch(() => undefined);
  cs?.kill();
  emu?.kill();
});

const pickTheme = async (name: string): Promise<void> => {
  await command('Preferences: Color Theme');
  const input = page.locator('.quick-input-widget input');
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: name }).first().click();
};

journey(
  'D1. the dashboard opens on the card targets: badges, the last value against the target, whole names, the x axis ending at the last iteration',
  async () => {
    await command('RL Runs: Open Metrics');
    const wv = webview();
    const targets = wv.locator('#card-targets');
    await targets.locator('.chart-card canvas').first().waitFor({ timeout: 60_000 });
    const first = await wv.locator('section.section').first().getAttribute('aria-label');
    assert.equal(first, 'Card targets');
    const names = await targets.locator('.chart-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-metric')));
    for (const m of ['ws/sign_flip_rate', 'ws/fallback_rate', 'ws/executed_is_argmax', 'ws/tau_running', 'ws/c_mean', 'ws/gate_mean_diff'])
      assert.ok(names.includes(m), `${m} in the card targets (${names.join(', ')})`);
    const badges = await targets.locator('.target-badge').allTextContents();
    assert.equal(badges.length, names.length);
    assert.ok(
      badges.every((b) => /pass|fail|no data/.test(b)),
      badges.join(' '),
    );
    const summary = (await targets.locator('.chart-card[data-metric="ws/c_mean"] .summary').textContent()) ?? '';
    assert.match(summary, /last [+-]?\d\.\d{4} at iteration 44 · target \|mean c\| < 0\.03/);
    // no title is cut: each is as wide as its text
    const cut = await wv.locator('.chart-card .title').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
    assert.equal(cut, 0, 'titles cut');
    const xMax = await targets.locator('.chart-card[data-metric="ws/c_mean"]').getAttribute('data-x-max');
    assert.equal(xMax, '44');
    assert.match((await wv.locator('#chart-hint').textContent()) ?? '', /Click a point/);
    await shot('dashboard-dark');
  },
);

journey('D2. an empty chart and a chart with gaps say so inside the chart', async () => {
  const wv = webview();
  await wv.locator('#metric-search:defined').waitFor({ timeout: 20_000 });
  await wv.locator('#metric-search').click();
  await page.keyboard.type('broken_metric');
  const empty = wv.locator('.chart-card[data-metric^="ws/broken_metric"] .gap-note');
  await empty.waitFor({ timeout: 20_000 });
  assert.match((await empty.textContent()) ?? '', /no values/);
  await wv.locator('#metric-search').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('truncation');
  const gaps = wv.locator('.chart-card[data-metric="ws/truncation_rate"] .gap-note');
  await gaps.waitFor({ timeout: 20_000 });
  assert.match((await gaps.textContent()) ?? '', /^12 of 45 values are missing or not finite/);
  await shot('dashboard-gaps');
  await wv.locator('#metric-search').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await wv.locator('#card-targets').waitFor();
});

journey('D3. a chart point is reachable by keyboard: arrows move the highlighted point, Enter opens its trajectories', async () => {
  const wv = webview();
  const canvas = wv.locator('.chart-card[data-metric="ws/c_mean"] canvas');
  await canvas.focus();
  await page.keyboard.press('End');
  const readout = wv.locator('.chart-card[data-metric="ws/c_mean"] .readout');
  await readout.filter({ hasText: /iteration 44/ }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('ArrowLeft');
  await readout.filter({ hasText: /iteration 43/ }).waitFor({ timeout: 10_000 });
  assert.equal(await readout.getAttribute('aria-live'), 'polite');
  await shot('dashboard-keyboard');
  await page.keyboard.press('Enter');
  await page
    .locator('.tab', { hasText: /Trajectories/ })
    .first()
    .waitFor({ timeout: 30_000 });
  await webview().getByText(/@ 43/).first().waitFor({ timeout: 30_000 });
  await shot('keyboard-opened-trajectories');
});

journey('D4. the dashboard in the light theme', async () => {
  await page
    .locator('.tab', { hasText: /Metrics/ })
    .first()
    .click();
  await pickTheme('Light Modern');
  await page.locator('.monaco-workbench.vs:not(.vs-dark)').waitFor({ timeout: 30_000 });
  await webview().locator('#card-targets .chart-card[data-drawn]').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await shot('dashboard-light');
  await pickTheme('Dark Modern');
});

journey('D5. the report states the tolerance of each mark and the units of the schema counts', async () => {
  await command('RL Runs: Open Run Report');
  const wv = webview();
  await wv.locator('#report-table').waitFor({ timeout: 30_000 });
  await shot('report');
  await page.mouse.wheel(0, 0);
  const tol = (await wv.locator('#report-table tr[data-key="cMismatches"]').textContent()) ?? '';
  assert.match(tol, /\|c − recomputed c\| > 1e-6/);
  const missing = await wv.locator('#schema-table td.num').allTextContents();
  assert.ok(
    missing.filter((t) => t).every((t) => /^[\d,]+ (records|turns)$/.test(t)),
    missing.join(' | '),
  );
});
