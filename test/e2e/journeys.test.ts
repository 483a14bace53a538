/**
 * End-to-end journeys in a real VS Code (code-server from npm) driven by Debian's
 * Chromium through playwright-core, against the Hub emulator on 127.0.0.1 (the harness:
 * harness.ts). Each step saves a screenshot under test-results/e2e/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SHOTS, until, workbench } from './harness';
import { hubRepoItem, savedForReload, steps } from './steps';

const ROOT = resolve('.');
const wb = workbench({
  name: '',
  focusLog: true,
  prepare: (run) => {
    // a trajectory whose texts are payloads, for journey 9
    const xss = {
      iteration: 44,
      group: 47,
      rollout: 9,
      task_id: '<img src=x onerror="document.title=\'pwned\'">',
      instruction: '<script>document.title="pwned";alert(1)</script><b>bold?</b> \u202Eevil',
      reward: 0,
      A: 0,
      labeled: false,
      turns: [{ action: 'write(message="<img src=x onerror=alert(2)><script>alert(3)</script>")', A_t: 0 }],
    };
    appendFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), JSON.stringify(xss) + '\n');
  },
});
const run = wb.run;
const { shot, webview, command, mark, faults, journey, continued, openTrajectory, theme } = steps(wb);

journey('1. the RL Runs view shows the Hub repo with resume/hf iterations, sizes and the latest star, and the local run', async () => {
  const icon = wb.page.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
  await icon.waitFor({ timeout: 30_000 });
  await icon.click();
  const repo = hubRepoItem(wb.page);
  await repo.waitFor({ timeout: 30_000 });
  await wb.page.locator('.monaco-list-row', { hasText: '4 resume · 4 hf' }).waitFor({ timeout: 30_000 });
  await repo.click();
  const resume = wb.page.getByRole('treeitem', { name: /^resume/ });
  await resume.waitFor();
  await resume.click();
  const latest = wb.page.locator('.monaco-list-row', { hasText: 'iter_0000039 ★' });
  await latest.waitFor();
  assert.match((await latest.textContent()) ?? '', /KB · 19 files/);
  await wb.page.getByRole('treeitem', { name: /^hf/ }).click();
  await wb.page.locator('.monaco-list-row', { hasText: 'iter_0000044' }).waitFor();
  await wb.page.locator('.monaco-list-row', { hasText: '10801 trajectories · 45 iterations' }).waitFor({ timeout: 30_000 });
  await shot('trees');
});

journey('2. the metrics dashboard draws the charts and the search box narrows them', async () => {
  await command('RL Runs: Open Metrics');
  const wv = webview();
  await wv.locator('.chart-card canvas').first().waitFor({ timeout: 60_000 });
  const all = await wv.locator('.chart-card').count();
  assert.ok(all >= 40, `${all} charts`);
  // the search box is a vscode-textfield, defined once the charts are painted (controls.js)
  await wv.locator('#metric-search:defined').waitFor({ timeout: 10_000 });
  await wv.locator('#metric-search').click();
  await wb.page.keyboard.type('c_mean');
  await wb.page.waitForFunction(() => true);
  await wv.locator('#metrics-info', { hasText: /^1 of / }).waitFor();
  assert.equal(await wv.locator('.chart-card').count(), 1);
  // pinning, remembered by the host for this workspace
  await wv.locator('.chart-card[data-metric="ws/c_mean"] .pin:not(.copy-link)').click();
  await wv.locator('section[aria-label="pinned"]').waitFor({ timeout: 10_000 });
  await shot('metrics');
  // a theme change redraws the charts in the new theme's colours (read from --vscode-*).
  // Canvas pixels of the theme's chart blue: opaque exact hits, opaque pixels left in the
  // dark theme's blue (#3794ff), and a line's pixels with the rows they span (the canvas
  // is transparent: a line's edge pixels keep its colour with partial alpha)
  type BluePixels = { blue: string; hits: number; others: number; near: number; rows: number; height: number };
  const scanBlue = (canvases: string): Promise<BluePixels> =>
    wv.locator('body').evaluate<BluePixels, undefined>(`((sel) => {
    const e = document.createElement('i');
    e.style.color = getComputedStyle(document.body).getPropertyValue('--vscode-charts-blue').trim();
    document.body.append(e);
    const blue = getComputedStyle(e).color;
    e.remove();
    const [r, g, b] = (blue.match(/\\d+/g) || []).map(Number);
    let hits = 0, others = 0, near = 0, height = 0;
    const ys = new Set();
    for (const c of document.querySelectorAll(sel)) {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      height = c.height;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] > 64 && Math.abs(d[i] - r) < 8 && Math.abs(d[i + 1] - g) < 8 && Math.abs(d[i + 2] - b) < 8) { near++; ys.add(Math.floor(i / 4 / c.width)); }
        if (d[i + 3] !== 255) continue;
        if (d[i] === r && d[i + 1] === g && d[i + 2] === b) hits++;
        else if (Math.abs(d[i] - 0x37) < 3 && Math.abs(d[i + 1] - 0x94) < 3 && d[i + 2] > 250) others++;
      }
    }
    return { blue, hits, others, near, rows: ys.size, height };
  })(${JSON.stringify(canvases)})`);
  const linePixels = (): Promise<BluePixels> => scanBlue('canvas');
  const dark = await linePixels();
  assert.ok(dark.hits > 20, `the line is drawn in the dark theme's blue ${dark.blue} (${dark.hits} pixels)`);
  await theme('Light Modern');
  let light = await linePixels();
  await until(async () => {
    light = await linePixels();
    return light.blue !== dark.blue && light.hits >= 20;
  }, "the line redrawn in the light theme's blue");
  assert.notEqual(light.blue, dark.blue, 'the light theme has another chart blue');
  assert.ok(light.hits > 20, `the line is redrawn in the light theme's blue ${light.blue} (${light.hits} pixels)`);
  assert.equal(light.others, 0, 'nothing is left in the dark theme blue');
  await shot('metrics-light');
  await theme('Dark Modern');
  // a constant metric (beta is 0.4 at every iteration) is one flat line, not float noise
  // stretched over the whole axis
  // the text field's own input, inside its shadow root (select-all keys may go to the workbench)
  const search = (text: string): Promise<void> => wv.locator('#metric-search input').fill(text);
  await search('ws/beta');
  await wv.locator('#metrics-info', { hasText: /^1 of / }).waitFor();
  const beta = wv.locator('.chart-card[data-metric="ws/beta"][data-drawn="true"] canvas');
  await beta.waitFor({ timeout: 20_000 });
  const rows = await scanBlue('.chart-card[data-metric="ws/beta"] canvas');
  assert.ok(rows.near > 50, `the beta line is drawn (${rows.near} pixels)`);
  assert.ok(rows.rows <= 4, `the beta line is flat: its pixels span ${rows.rows} of ${rows.height} rows`);
  await search('c_mean');
  await wv.locator('#metrics-info', { hasText: /^1 of / }).waitFor();
});

continued('3. clicking a point of ws/c_mean opens the trajectory browser at that iteration, sorted by mean c', async () => {
  const canvas = webview().locator('.chart-card[data-metric="ws/c_mean"][data-drawn="true"] canvas');
  await canvas.waitFor({ timeout: 20_000 });
  const box = (await canvas.boundingBox())!;
  await canvas.click({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
  const label = webview().locator('#jump-label', { hasText: /ws\/c_mean @ \d+: sorted by mean c/ });
  await label.waitFor({ timeout: 20_000 });
  const it = Number(/@ (\d+)/.exec((await label.textContent())!)![1]);
  assert.equal(await webview().locator('#f-iterationMin').inputValue(), String(it));
  assert.ok(await webview().locator('#f-labeled').isChecked());
  await webview().locator('.trow').first().waitFor();
  assert.match((await webview().locator('.thead [data-key="meanC"]').textContent())!, /▼/);
  // Shift+click adds a second key after mean c; the rows stay in mean c order
  await webview()
    .locator('.thead [data-key="reward"]')
    .click({ modifiers: ['Shift'] });
  await webview().locator('.thead [data-key="reward"]', { hasText: '▲2' }).waitFor({ timeout: 10_000 });
  assert.match((await webview().locator('.thead [data-key="meanC"]').textContent())!, /▼1/);
  await webview().locator('.trow').first().waitFor();
  const meanCs = (await webview().locator('.trow span:nth-child(8)').allTextContents()).map(Number).filter((v) => Number.isFinite(v));
  assert.ok(meanCs.length > 5 && meanCs.every((v, i) => i === 0 || v <= meanCs[i - 1]!), 'rows still sorted by mean c, descending');
  await shot('jump');
});

continued('4. a labeled trajectory shows each turn exactly as the log has it', async () => {
  const row = webview().locator('.trow').first();
  const key = (await row.getAttribute('data-key'))!;
  await row.click();
  const [iteration, group, rollout] = key.split('/').map(Number);
  await webview()
    .locator('#detail-title', { hasText: `iteration ${iteration} · group ${group} · rollout ${rollout}` })
    .waitFor({ timeout: 20_000 });
  const line = readFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`{"iteration":${iteration},"group":${group},"rollout":${rollout},`))!;
  const rec = JSON.parse(line) as {
    turns: { action: string; scores: number[]; same: boolean[]; done: boolean[]; c: number | null; A_t: number }[];
  };
  const turn = webview().locator('.turn[data-turn="0"]');
  const t0 = rec.turns[0]!;
  assert.equal(await turn.locator('pre[data-field="action"]').textContent(), t0.action);
  const scores = await turn.locator('[data-field="score"]').allTextContents();
  assert.deepEqual(
    scores,
    t0.scores.map((s) => s.toFixed(3)),
  );
  const tagsText = await turn.locator('.cands').textContent();
  assert.equal((tagsText!.match(/same action/g) ?? []).length, t0.same.slice(1).filter(Boolean).length);
  assert.equal((tagsText!.match(/done \(dropped\)/g) ?? []).length, t0.done.slice(1).filter(Boolean).length);
  const fmt4 = (v: number): string => (v >= 0 ? '+' : '') + v.toFixed(4);
  assert.equal(
    await turn.locator('[data-field="c"]').textContent(),
    t0.c === null ? 'null' : Number.isInteger(t0.c) ? String(t0.c) : fmt4(t0.c),
  );
  assert.equal(await turn.locator('[data-field="At"]').textContent(), Number.isInteger(t0.A_t) ? String(t0.A_t) : fmt4(t0.A_t));
  await shot('trajectory');
});

continued('5. the group view shows the five siblings with their rewards', async () => {
  await webview().locator('#toggle-group').click();
  const rows = webview().locator('#group-view tr[data-rollout]');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 5);
  const title = (await webview().locator('#detail-title').textContent())!;
  const [, it, g] = /iteration (\d+) · group (\d+)/.exec(title)!;
  const lines = readFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`{"iteration":${it},"group":${g},`));
  const rewards = lines.map((l) => String((JSON.parse(l) as { reward: number }).reward));
  const shown = await rows.locator('td:nth-child(2)').allTextContents();
  assert.deepEqual(shown, rewards);
  await shot('group');
});

function sameFiles(a: string, b: string): void {
  const names = readdirSync(b).sort();
  assert.deepEqual(readdirSync(a).sort(), names);
  for (const n of names) assert.ok(readFileSync(join(a, n)).equals(readFileSync(join(b, n))), `${n} differs`);
}

/** A resume download from the tree's inline action; the first one asks for the folder, later ones use the remembered one. */
async function downloadFromTree(iterLabel: string, folder: 'asked' | 'remembered'): Promise<void> {
  await wb.page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').hover();
  // resume/ is listed above hf/, which can hold the same iteration
  const row = wb.page.locator('.monaco-list-row', { hasText: iterLabel }).first();
  await row.hover();
  await row.locator('.action-label[aria-label^="Download Checkpoint for Resume"]').click();
  if (folder === 'remembered') return;
  const input = wb.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await wb.page.locator('.quick-input-list .monaco-list-row').first().click();
}

journey('6. downloading a resume checkpoint from the tree: progress, byte-identical files, latest file, marked downloaded', async () => {
  await faults({ trickleBytesPerSecond: 40_000 });
  await downloadFromTree('iter_0000039', 'asked');
  await wb.page.locator('.notifications-toasts', { hasText: /Downloading .*resume iteration 39/ }).waitFor({ timeout: 20_000 });
  await shot('download-progress');
  await wb.page.locator('.notifications-toasts', { hasText: /Downloaded and verified/ }).waitFor({ timeout: 60_000 });
  await faults({});
  const dest = join(wb.downloads, 'XunmeiLiu__openwebrl-ws-credit-beta0.4', 'ckpt');
  sameFiles(join(dest, 'iter_0000039'), join(run, '.hub-repo', 'resume', 'iter_0000039'));
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '39');
  await wb.page.locator('.monaco-list-row', { hasText: /iter_0000039 ★.*downloaded/ }).waitFor({ timeout: 20_000 });
  await shot('downloaded');
});

journey('7. a download over a dropping link, cancelled, then started again, completes and verifies', async () => {
  await faults({ dropAfterBytes: 1500, dropCount: 100000, trickleBytesPerSecond: 20_000, minBodyBytes: 1501 });
  await downloadFromTree('iter_0000029', 'remembered');
  const modal = wb.page.locator('.monaco-dialog-box');
  // iteration 29 would change the destination's latest (39): the extension asks first
  await modal.waitFor({ timeout: 20_000 });
  await shot('asks-before-changing-latest');
  await modal.locator('.monaco-button', { hasText: 'Download and set as latest' }).click();
  await wb.page.locator('.notifications-toasts', { hasText: /Downloading .*resume iteration 29/ }).waitFor({ timeout: 20_000 });
  await command('RL Runs: Cancel Download');
  await wb.page.locator('.notifications-toasts', { hasText: /Download cancelled/ }).waitFor({ timeout: 30_000 });
  const dest = join(wb.downloads, 'XunmeiLiu__openwebrl-ws-credit-beta0.4', 'ckpt');
  assert.equal(
    readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'),
    '39',
    'the latest file still names a complete iteration',
  );
  await faults({ dropAfterBytes: 3000, dropCount: 6, minBodyBytes: 3001 });
  await wb.page.locator('.notifications-toasts .monaco-button', { hasText: 'Resume' }).first().click();
  await wb.page.locator('.notifications-toasts', { hasText: /Downloaded and verified .*iteration 29/ }).waitFor({ timeout: 60_000 });
  await faults({});
  sameFiles(join(dest, 'iter_0000029'), join(run, '.hub-repo', 'resume', 'iter_0000029'));
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '29');
  await shot('resumed');
});

journey('8. iterations appended to the logs appear in the open dashboard without reopening it', async () => {
  await command('RL Runs: Open Metrics');
  const wv = webview();
  await wv.locator('#charts-root[data-iterations="45"]').waitFor({ timeout: 60_000 });
  const metrics = join(run, 'logs', 'ws_metrics.jsonl');
  const lines = readFileSync(metrics, 'utf8').trim().split('\n');
  const lastRow = JSON.parse(lines[lines.length - 1]!) as Record<string, number>;
  appendFileSync(metrics, [45, 46, 47].map((i) => JSON.stringify({ ...lastRow, iteration: i, 'ws/c_mean': 0.5 })).join('\n') + '\n');
  await wv.locator('#charts-root[data-iterations="48"]').waitFor({ timeout: 15_000 });
  await shot('live-append');
});

journey('10. after a window reload the trajectory browser comes back at the same trajectory', async () => {
  await openTrajectory('12 7 3');
  // a page the webview left blank is loaded again, then opened in a new webview, after 10 s each: up to a minute
  await webview().locator('#detail-title', { hasText: 'iteration 12 · group 7 · rollout 3' }).waitFor({ timeout: 60_000 });
  // a reload reopens what the workbench saved: it saves its editors every few seconds, not on
  // unload, and the extension remembers the trajectory in workspace state; wait until both are
  const waited = await savedForReload(wb.page, 'rlRunBrowser.trajectories', '"iteration":12,"group":7,"rollout":3');
  mark(`saved for a reload after ${waited.toFixed(1)} s`);
  // the workbench's own reload (what a user runs), not the browser's: it shuts the window down in
  // order, its state flushed, where a page reload races the unload against the storage writes
  const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
  await command('Developer: Reload Window');
  await reloaded;
  await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const tab = wb.page.locator('.tabs-container .tab', { hasText: 'Trajectories: run' });
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  await webview().locator('#detail-title', { hasText: 'iteration 12 · group 7 · rollout 3' }).waitFor({ timeout: 60_000 });
  await shot('restored');
});

journey('9. payloads in a log are shown as text: nothing runs, the CSP is strict', async () => {
  await openTrajectory('44 47 9');
  const wv = webview();
  // the browser may still show the trajectory of the journey before: wait for this one (a page the webview
  // left blank is loaded again, then opened in a new webview, after 10 s each: up to a minute)
  await wv.locator('#detail-title', { hasText: 'iteration 44 · group 47 · rollout 9' }).waitFor({ timeout: 60_000 });
  await wv.locator('#instruction').waitFor({ timeout: 20_000 });
  assert.equal(await wv.locator('#instruction').textContent(), '<script>document.title="pwned";alert(1)</script><b>bold?</b> <U+202E>evil'); // the bidi control made visible (#13 item 10)
  assert.equal(
    await wv.locator('.turn[data-turn="0"] pre[data-field="action"]').textContent(),
    'write(message="<img src=x onerror=alert(2)><script>alert(3)</script>")',
  );
  assert.equal(await wv.locator('#detail img, #detail script, #detail b').count(), 0, 'no element made from log text');
  assert.notEqual(await wv.locator('title').textContent(), 'pwned');
  const csp = await wv.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp!, /default-src 'none'; script-src 'nonce-[A-Za-z0-9]+'/);
  assert.ok(!/unsafe-inline|unsafe-eval/.test(csp!));
  await shot('payloads');
});

journey('11. the run report shows the figures that rlrb report --json gives', async () => {
  const cli = spawnSync('node', ['dist/cli.js', 'report', run, '--json'], { encoding: 'utf8' });
  const j = JSON.parse(cli.stdout) as Record<string, number | null>;
  await command('RL Runs: Open Run Report');
  const wv = webview();
  await wv.locator('#report-table').waitFor({ timeout: 60_000 });
  for (const key of [
    'signFlipRate',
    'fallbackRate',
    'executedIsArgmaxRate',
    'meanC',
    'rmsBetaCOverRmsA',
    'cMismatches',
    'aTMismatches',
    'auroc',
  ]) {
    const v = await wv.locator(`#report-table tr[data-key="${key}"] td[data-value]`).getAttribute('data-value');
    assert.equal(v, j[key] === null ? 'null' : String(j[key]), key);
  }
  await shot('report');
});

journey('12. the in-host suite: every command runs on the demo run, settings are picked up, sign-in stores the token', async () => {
  const suite = resolve('build', 'inhost', 'suite.js');
  assert.ok(existsSync(suite), 'the in-host suite is built');
  const host = await wb.page.context().newPage();
  const logs: string[] = [];
  const exit = new Promise<number>((res) => {
    void host.exposeFunction('codeAutomationExit', (code: number) => {
      res(code);
    });
  });
  await host.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
    logs.push(`${type}: ${JSON.stringify(args)}`);
  });
  const payload = JSON.stringify([
    ['extensionDevelopmentPath', `vscode-remote://remote${ROOT}`],
    ['extensionTestsPath', `vscode-remote://remote${suite}`],
  ]);
  await host.goto(`${wb.page.url().split('?')[0]}?folder=${encodeURIComponent(run)}&payload=${encodeURIComponent(payload)}`);
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exit,
    new Promise<number>((res) => {
      timer = setTimeout(() => res(-1), 150_000);
    }),
  ]);
  clearTimeout(timer);
  await host.screenshot({ path: join(SHOTS, '12-inhost.png') }).catch(() => undefined);
  await host.close();
  writeFileSync(join(SHOTS, 'inhost.log'), logs.join('\n'));
  assert.equal(code, 0, `the in-host suite exited with ${code}:\n${logs.slice(-30).join('\n')}`);
});
