/**
 * Comparing two runs in a real VS Code (code-server) driven by Chromium, on the demo run
 * and its plain GRPO baseline (run/baseline): both selected in Local runs and compared,
 * a figure equal to `rlrb compare --json`, the per-task table sorted and filtered, Copy
 * Link, a task click, the light theme, a followed Hub repo as run B (its logs downloaded
 * first), the panel after a window reload. Screenshots: test-results/e2e/compare-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { REPO, until, workbench } from './harness';
import { compareRunWithBaseline, rowMenu, savedForReload } from './steps';

let page: Page;
const wb = workbench({ name: 'compare', demoArgs: [] }, (w) => {
  page = w.page;
});
const webview = (): FrameLocator => wb.webview();

interface CompareJson {
  iterations: number;
  trajectoriesA: number;
  successA: number | null;
  successB: number | null;
  tasks: { count: number; p: number | null };
}

function compareJson(a = wb.run, b = join(wb.run, 'baseline')): CompareJson {
  const r = spawnSync('node', ['dist/cli.js', 'compare', a, b, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as CompareJson;
}

/** The numbers of one column of the task rows in view. */
async function column(n: number): Promise<number[]> {
  const cells = await webview().locator(`.task-spacer .task-row > :nth-child(${n})`).allTextContents();
  // a task one run did not see has no difference (—): it sorts last, and is left out here
  return cells.map((c) => Number(c.replace(/,/g, ''))).filter((x) => !Number.isNaN(x));
}

const ordered = (xs: number[], desc: boolean): boolean => xs.every((x, i) => i === 0 || (desc ? xs[i - 1]! >= x : xs[i - 1]! <= x));

wb.journey(
  'C1. two runs selected in Local runs are compared: the figures equal rlrb compare --json, B says it has no labeled turn',
  async () => {
    await compareRunWithBaseline(page);
    const wv = webview();
    const success = wv.locator('#figures tr[data-key="success"]');
    await success.waitFor({ timeout: 60_000 });
    const json = compareJson();
    assert.equal(Number(await success.locator('td').nth(1).getAttribute('data-value')), json.successA);
    assert.equal(Number(await success.locator('td').nth(2).getAttribute('data-value')), json.successB);
    const paired = wv.locator('#figures tr[data-key="taskMeanDiff"] td').nth(4);
    assert.equal(Number(await paired.getAttribute('data-value')), json.tasks.p);
    assert.match((await wv.locator('#window').textContent()) ?? '', new RegExp(`\\(${json.iterations} in common\\)`));
    assert.match((await wv.locator('#warnings').textContent()) ?? '', /run B \(.*\): no labeled turn/);
    assert.match((await wv.locator('#report-note').textContent()) ?? '', /^B: no labeled turn/);
    const flip = wv.locator('#reports tr[data-key="signFlipRate"] td');
    assert.equal(await flip.nth(4).textContent(), 'no labeled turn');
    await wv.locator('#success-chart').waitFor();
    await wv.locator('.task-spacer .task-row').first().waitFor({ timeout: 30_000 });
    assert.match((await wv.locator('#task-status').textContent()) ?? '', new RegExp(`^${json.tasks.count} tasks$`));
    await wb.shot('panel');
    await wv.locator('#reports').scrollIntoViewIfNeeded();
    await wb.shot('reports');
    // the success charts come after the figures' paint (their series asked for then): drawn, with their note
    await wv
      .locator('#chart-note')
      .filter({ hasText: new RegExp(`at each of the ${json.iterations} common iterations`) })
      .waitFor({ timeout: 30_000 });
    await wv.locator('#success-chart').scrollIntoViewIfNeeded();
    await wb.shot('success-charts');
  },
);

wb.continued('C2. the per-task table sorts by a column either way and filters by text, the filter a chip with clear', async () => {
  const wv = webview();
  await wv.locator('#task-table').scrollIntoViewIfNeeded();
  // the default sort: A − B, largest first
  assert.ok(ordered(await column(4), true), 'sorted by A − B, descending');
  await wv.locator('.task-head [data-sort="trajectoriesA"]').click();
  await wv.locator('[data-chip="sort"]', { hasText: 'sorted by trajectories in A, descending' }).waitFor({ timeout: 10_000 });
  await wv.locator('.task-head [data-sort="trajectoriesA"][aria-sort="descending"]').waitFor();
  // the rows are drawn again after the header says so
  await until(async () => ordered(await column(5), true), 'trajectories in A, descending');
  await wv.locator('.task-head [data-sort="trajectoriesA"]').click();
  await wv.locator('[data-chip="sort"]', { hasText: 'ascending' }).waitFor({ timeout: 10_000 });
  await until(async () => ordered(await column(5), false), 'trajectories in A, ascending');
  // filter by the name of the first task in view
  const total = (await wv.locator('#task-status').textContent()) ?? '';
  const name = (await wv.locator('.task-spacer .task-row').first().getAttribute('data-task'))!;
  await wv.locator('#task-filter').fill(name);
  await wv.locator('[data-chip="text"]', { hasText: name }).waitFor({ timeout: 10_000 });
  await wv
    .locator('#task-status', { hasText: /^\d+ tasks?$/ })
    .filter({ hasNotText: total })
    .waitFor({ timeout: 10_000 });
  const tasks = await wv.locator('.task-spacer .task-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-task') ?? ''));
  assert.ok(tasks.length > 0 && tasks.every((t) => t.toLowerCase().includes(name.toLowerCase())), tasks.join());
  await wb.shot('filtered');
  await wv.locator('#clear-filter').click();
  await wv.locator('#task-status', { hasText: total }).waitFor({ timeout: 10_000 });
  assert.equal(await wv.locator('[data-chip="text"]').count(), 0);
});

wb.continued(
  'C3. Copy Link puts a link with compare= on the clipboard; a task click opens the task view or says it is missing',
  async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const wv = webview();
    await wv.locator('#copy-link').click();
    await wv.locator('#notice', { hasText: 'Copied the link' }).waitFor({ timeout: 10_000 });
    const link = await page.evaluate<string>('navigator.clipboard.readText()');
    // every Copy Link takes the editor's own scheme (vscode.env.uriScheme): code-oss in code-server
    assert.match(link, /^code-oss:\/\/rl-run-browser\.rl-run-browser\/open\?run=/);
    assert.ok(link.includes(`compare=${join(wb.run, 'baseline')}`), link);
    const tabs = await page.locator('.editor-group-container .tab').count();
    await wv.locator('.task-spacer .task-row').first().click();
    // a string: the tests compile without the DOM's types
    await page
      .waitForFunction(`document.querySelectorAll('.editor-group-container .tab').length > ${tabs}`, undefined, { timeout: 10_000 })
      .catch(async () => {
        await wv.locator('#notice', { hasText: 'The task view is not available' }).waitFor({ timeout: 5_000 });
      });
    await wb.shot('after-task-click');
  },
);

wb.journey('C4. the palette compares two runs picked one after the other; the panel in the light theme', async () => {
  // each run by its root, the item's description (the run A was excluded from the second pick)
  await wb.commandPick('RL Runs: Compare Two Runs…', join(wb.run, 'baseline'), wb.run);
  const wv = webview();
  await wv.locator('#figures tr[data-key="success"]').waitFor({ timeout: 60_000 });
  assert.match((await wv.locator('.compare-header h1').textContent()) ?? '', /A: baseline vs B: run/);
  await wb.theme('Light Modern');
  await wb.shot('panel-light');
  await wb.theme('Dark Modern');
});

wb.continued(
  'C5. a line appended to run A (the baseline here) reaches the open comparison: its trajectory count and success move',
  async () => {
    // C4 left the comparison baseline (A) against run (B) open, in the dark theme again
    const wv = webview();
    const count = wv.locator('#figures tr[data-key="trajectories"] td').nth(1);
    const before = Number(await count.getAttribute('data-value'));
    const log = join(wb.run, 'baseline', 'logs', 'ws_credit_log.jsonl');
    const last = readFileSync(log, 'utf8').trimEnd().split('\n').pop()!;
    const added = last.replace(/"rollout":\d+/, '"rollout":99').replace(/"reward":[^,]+/, '"reward":1');
    assert.notEqual(added, last);
    appendFileSync(log, `${added}\n`);
    await wv.locator(`#figures tr[data-key="trajectories"] td[data-value="${before + 1}"]`).waitFor({ timeout: 20_000 });
    const json = compareJson(join(wb.run, 'baseline'), wb.run);
    assert.equal(json.trajectoriesA, before + 1);
    const success = wv.locator('#figures tr[data-key="success"] td').nth(1);
    assert.equal(Number(await success.getAttribute('data-value')), json.successA);
    await wb.shot('live');
  },
);

wb.continued(
  'C5b. a task id holding a bidi control is shown in the per-task table with the control visible, never reordering the text',
  async () => {
    const wv = webview();
    const log = join(wb.run, 'baseline', 'logs', 'ws_credit_log.jsonl');
    const last = readFileSync(log, 'utf8').trimEnd().split('\n').pop()!;
    const added = last.replace(/"rollout":\d+/, '"rollout":98').replace(/"task_id":"[^"]*"/, '"task_id":"t1\\u202Egnp.exe"');
    assert.match(added, /gnp\.exe/);
    appendFileSync(log, `${added}\n`);
    const filter = wv.locator('#task-filter');
    await filter.fill('gnp.exe');
    const cell = wv.locator('.task-spacer .task-row .task-name', { hasText: 'gnp.exe' });
    await cell.waitFor({ timeout: 20_000 });
    assert.equal(await cell.locator('.bidi').textContent(), '<U+202E>');
    assert.equal(await cell.textContent(), 't1<U+202E>gnp.exe');
    await wb.shot('bidi-task');
    await filter.fill('');
  },
);

/** The Local runs tree in view (a click on the activity bar's icon when it is already open would close it). */
async function localRuns(): Promise<void> {
  const tree = page.locator('.pane-header', { hasText: 'Local runs' });
  if (!(await tree.isVisible())) await page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').click();
  await tree.waitFor({ timeout: 30_000 });
}

/** What the comparison panel shows of its two runs and its window. */
async function shown(): Promise<{ title: string; roots: string[]; window: string; successA: string; successB: string }> {
  const wv = webview();
  const success = wv.locator('#figures tr[data-key="success"] td');
  return {
    title: (await wv.locator('.compare-header h1').textContent()) ?? '',
    roots: await wv.locator('.compare-header .roots > div').allTextContents(),
    window: (await wv.locator('#window').textContent()) ?? '',
    successA: (await success.nth(1).getAttribute('data-value')) ?? '',
    successB: (await success.nth(2).getAttribute('data-value')) ?? '',
  };
}

wb.journey(
  'C6. "Compare with…" on the demo run: the Hub repo is not offered while the Hub fails; once back, its logs are downloaded and compared',
  async () => {
    await localRuns();
    const runRow = page.locator('.monaco-list-row', { hasText: /^run\s*(\d+ data problems? · )?\d+ trajectories/ });
    await runRow.waitFor({ timeout: 60_000 });
    // the Hub gone since the tree listed the repo (every API request a 503): the pick does not offer it, and says why
    await page
      .locator('.monaco-list-row', { hasText: /\d+ resume · \d+ hf/ })
      .first()
      .waitFor({ timeout: 30_000 });
    await wb.faults({ apiErrors: { count: 1_000, status: 503 } });
    const why = page.locator('.quick-input-widget .quick-input-title', { hasText: `Not reachable now: ${REPO}` });
    const offered = page.locator('.quick-input-list .monaco-list-row');
    for (const theme of ['Dark Modern', 'Light Modern'] as const) {
      if (theme !== 'Dark Modern') await wb.theme(theme);
      // one run selected (C1 left two: the menu then offers Compare Selected Runs instead)
      await rowMenu(page, [runRow], 'Compare with…');
      await why.waitFor({ timeout: 10_000 });
      await offered.filter({ hasText: 'baseline' }).first().waitFor({ timeout: 10_000 });
      assert.equal(await offered.filter({ hasText: REPO }).count(), 0, (await offered.allTextContents()).join(' | '));
      await wb.shot(`pick-hub-unreachable-${theme.startsWith('Dark') ? 'dark' : 'light'}`);
      await page.keyboard.press('Escape');
      await why.waitFor({ state: 'hidden', timeout: 5_000 });
    }
    await wb.theme('Dark Modern');
    await wb.faults({});
    await rowMenu(page, [runRow], 'Compare with…');
    const repoRow = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: REPO }).first();
    await repoRow.waitFor({ timeout: 10_000 });
    await wb.shot('pick-hub-repo');
    await repoRow.click();
    // the first download of the repo's logs asks once where (the default folder in one click)
    const success = webview().locator('#figures tr[data-key="success"]');
    const asked = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'default' }).first();
    await Promise.race([success.waitFor({ timeout: 120_000 }), asked.waitFor({ timeout: 120_000 })]);
    if (await asked.isVisible()) await asked.click();
    await success.waitFor({ timeout: 120_000 });
    const s = await shown();
    assert.match(s.title, /^A: run vs B: /);
    const rootB = s.roots[1]?.replace(/^B = /, '') ?? '';
    assert.ok(rootB.startsWith(wb.downloads), `B is the downloaded logs' run folder: ${rootB}`);
    const json = compareJson(wb.run, rootB);
    assert.equal(Number(s.successA), json.successA);
    assert.equal(Number(s.successB), json.successB);
    assert.match(s.window, new RegExp(`\\(${json.iterations} in common\\)`));
    await webview().locator('.task-spacer .task-row').first().waitFor({ timeout: 30_000 });
    await wb.shot('hub-side');
  },
);

wb.continued('C7. after Developer: Reload Window the comparison comes back with the same two runs and the same window', async () => {
  const before = await shown();
  const rootB = before.roots[1]!.replace(/^B = /, '');
  await savedForReload(page, 'rlRunBrowser.compare', rootB);
  await wb.command('Developer: Reload Window');
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const tab = page.locator('.tabs-container .tab', { hasText: /^Compare: run ↔/ });
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  await webview().locator('#figures tr[data-key="success"]').waitFor({ timeout: 60_000 });
  assert.deepEqual(await shown(), before);
  await wb.shot('restored');
});
