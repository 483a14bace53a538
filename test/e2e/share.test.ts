/**
 * Sharing, in a real code-server and Chromium: a turn's link copied to the clipboard and
 * opened through the editor's own URL route (Developer: Open URL, as an OS hand-off
 * would) in a second window on another workspace, at the same turn; a link naming what
 * the run lacks refused; the raw record at its line and a turn's formatted view; the
 * browser's filter exported (the bytes equal to the source lines); the notebook command
 * without Jupyter; the shortcuts. code-server is itself a remote set-up (the UI in the
 * browser, the extension host on the server), so the clipboard, the link and the export
 * all cross that boundary here.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { parseTolerant } from '../../src/core/log/tolerantJson';
import { buildSchemaTables } from '../../src/core/record/schema';
import { prettyRecord, turnsKeyOf } from '../../src/extension/share/prettyRecord';
import { EXTENSION_ID, buildLink } from '../../src/core/links/link';
import type { LinkView } from '../../src/core/links/link';
import { REPO, SHOTS, settled, until, workbench } from './harness';
import { hubRepoItem, rowMenu } from './steps';

const KEY = { iteration: 12, group: 7, rollout: 3 };
const TURN = 5;
let page: Page;
let run = '';
const wb = workbench({ name: 'share' }, (w) => {
  page = w.page;
  run = w.run;
});
const log = (): string => join(run, 'logs', 'ws_credit_log.jsonl');
const sourceLines = (): string[] => readFileSync(log(), 'utf8').split('\n');
/** 1-based line of a trajectory in the log, found by reading the file (not by the extension's index). */
const lineOf = (k: typeof KEY): number =>
  sourceLines().findIndex((l) => l.startsWith(`{"iteration":${k.iteration},"group":${k.group},"rollout":${k.rollout},`)) + 1;
let link = '';

const webviewOf = (p: Page): FrameLocator => p.frameLocator('iframe.webview.ready:visible').frameLocator('#active-frame');
const toast = (p: Page, text: RegExp): ReturnType<Page['locator']> =>
  p.locator('.notifications-toasts .notification-toast', { hasText: text });

/**
 * The link through the editor's own URL route (what VS Code does with a vscode:// URI the OS hands
 * it), then a wait until `landed` shows. The first link of an extension in a window makes the editor
 * ask whether it may open it, at any time before it lands: answered Open whenever it shows. A fresh
 * window sometimes drops the first URL it is given (nothing shows): it is given it once more.
 */
async function openUrl(p: Page, url: string, landed: Locator, timeout = 60_000): Promise<void> {
  const ask = p.locator('.monaco-dialog-box', { hasText: /Allow .*RL Run Browser.* to open this URI/i });
  const arrived = async (): Promise<boolean> => {
    if (await landed.isVisible()) return true;
    if (await ask.isVisible()) await ask.locator('.monaco-button', { hasText: /^Open$/ }).click();
    return false;
  };
  for (let attempt = 1; ; attempt++) {
    await wb.command('Developer: Open URL', p);
    const input = p.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(url);
    await p.keyboard.press('Enter');
    const what = `the link ${url.slice(0, 120)} landed`;
    if (attempt === 2) return until(arrived, what, timeout);
    if (
      await until(arrived, what, 30_000).then(
        () => true,
        () => false,
      )
    )
      return;
  }
}

/** A second window of the workbench on a fresh, empty folder: another workspace, its own extension host's state. */
async function windowOn(folder: string): Promise<Page> {
  const elsewhere = join(wb.work, folder);
  mkdirSync(elsewhere, { recursive: true });
  const other = await page.context().newPage();
  await other.goto(`http://127.0.0.1:${wb.port}/?folder=${encodeURIComponent(elsewhere)}`);
  await other.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const runs = other.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
  await runs.waitFor({ timeout: 60_000 });
  // the extension active (its Hub tree drawn) before a link comes: a link given to a window whose
  // extension is still activating by the link is sometimes dropped
  await runs.click();
  await hubRepoItem(other).first().waitFor({ timeout: 60_000 });
  return other;
}

async function turnInView(wv: FrameLocator, turn: number): Promise<void> {
  const target = wv.locator(`.turn.target[data-turn="${turn}"]`);
  await target.waitFor({ timeout: 20_000 });
  const pane = (await wv.locator('#detail').boundingBox())!;
  const box = (await target.boundingBox())!;
  assert.ok(
    box.y >= pane.y - 1 && box.y < pane.y + pane.height,
    `turn ${turn} is scrolled into view (${box.y} in ${pane.y}+${pane.height})`,
  );
}

wb.journey('S1. Copy Link on a turn puts a link to that run, trajectory and turn on the clipboard', async () => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${wb.port}` });
  await wb.openTrajectory(`${KEY.iteration} ${KEY.group} ${KEY.rollout}`);
  const wv = wb.webview();
  await wv
    .locator('#detail-title', { hasText: `iteration ${KEY.iteration} · group ${KEY.group} · rollout ${KEY.rollout}` })
    .waitFor({ timeout: 60_000 });
  assert.equal(await wv.locator('#detail-title .detail-copy-link').count(), 1, 'Copy Link in the detail header');
  assert.equal(await wv.locator('.turn .turn-copy-link').count(), 8, 'copy link on each turn');
  await wv.locator(`.turn[data-turn="${TURN}"] .turn-copy-link`).click();
  await toast(page, new RegExp(`Copied a link to ${KEY.iteration} · ${KEY.group} · ${KEY.rollout}, turn ${TURN}`)).waitFor({
    timeout: 20_000,
  });
  // a string: the tests compile without the DOM's types
  link = await page.evaluate<string>('navigator.clipboard.readText()');
  // code-server's scheme is code-oss (VS Code's is vscode): the link is the editor's own
  assert.match(link, /^code-oss:\/\/rl-run-browser\.rl-run-browser\/open\?run=\//);
  assert.ok(link.endsWith(`&iteration=${KEY.iteration}&group=${KEY.group}&rollout=${KEY.rollout}&turn=${TURN}`), link);
  assert.equal(decodeURIComponent(decodeURIComponent(/run=([^&]*)/.exec(link)![1]!)), run);
  await wb.shot('copied-link');
});

wb.continued(
  'S2. the link opens in a fresh window on another workspace at the same turn; a link to what is not there is refused',
  async () => {
    const other = await windowOn('elsewhere');
    try {
      const wv = webviewOf(other);
      const title = wv.locator('#detail-title', { hasText: `iteration ${KEY.iteration} · group ${KEY.group} · rollout ${KEY.rollout}` });
      await openUrl(other, link, title);
      await turnInView(wv, TURN);
      assert.match((await wv.locator('#jump-label').textContent())!, /^opened from a link/);
      await other.screenshot({ path: join(SHOTS, 'share-S2-link-opened-elsewhere.png') });
      await openUrl(other, link.replace(/&iteration=.*$/, '&iteration=99'), toast(other, /link refused: iteration 99 is not in run run/));
      await openUrl(other, link.replace(/run=[^&]*/, 'run=/no/such/run'), toast(other, /link refused: no RL run at \/no\/such\/run/));
      await other.screenshot({ path: join(SHOTS, 'share-S2-link-refused.png') });
    } finally {
      await other.close();
    }
  },
);

wb.continued("S3. Open Raw Record: the log at the trajectory's line; from a turn, the formatted record at that turn", async () => {
  const wv = wb.webview();
  await wv.locator('.detail-raw').click();
  const line = lineOf(KEY);
  // the demo log is 23 MB: on a loaded machine the editor takes a while to open it
  const tab = page.locator('.tab[aria-selected="true"]', { hasText: 'ws_credit_log.jsonl' });
  await tab.waitFor({ timeout: 120_000 });
  await page.locator('.statusbar-item', { hasText: `Ln ${line}, Col 1` }).waitFor({ timeout: 60_000 });
  await wb.shot('raw-record-line');
  await page.locator('.tab', { hasText: 'Trajectories' }).click();
  await wb.webview().locator(`.turn[data-turn="${TURN}"] .turn-raw`).click();
  await page.locator('.tab[aria-selected="true"]', { hasText: `ws_credit_log.jsonl line ${line}.json` }).waitFor({ timeout: 20_000 });
  const record = parseTolerant(sourceLines()[line - 1]!) as Record<string, unknown>;
  const pretty = prettyRecord(record, turnsKeyOf(record, buildSchemaTables()));
  await page.locator('.statusbar-item', { hasText: `Ln ${pretty.turnLines[TURN]! + 1}, Col 1` }).waitFor({ timeout: 20_000 });
  const action = (record['turns'] as { action: string }[])[TURN]!.action;
  await page
    .locator('.editor-instance .view-line', { hasText: JSON.stringify(action).slice(1, 20) })
    .first()
    .waitFor({ timeout: 10_000 });
  await wb.shot('raw-record-turn');
});

wb.continued('S4. the shortcuts: next trajectory, next turn, group view, in the browser only', async () => {
  await page.locator('.tab', { hasText: 'Trajectories' }).click();
  const wv = wb.webview();
  await wv.locator('.trow.sel').click();
  await page.keyboard.press('Alt+ArrowDown');
  const next = wv.locator('#detail-title', { hasText: /rollout 4/ });
  await next.waitFor({ timeout: 20_000 });
  await page.keyboard.press('Shift+Alt+ArrowDown');
  await wv.locator('.turn.focus[data-turn="0"]').waitFor({ timeout: 10_000 });
  await page.keyboard.press('Shift+Alt+ArrowDown');
  await wv.locator('.turn.focus[data-turn="1"]').waitFor({ timeout: 10_000 });
  await page.keyboard.press('Control+KeyK');
  await page.keyboard.press('Control+KeyG');
  await wv.locator('#siblings').waitFor({ timeout: 10_000 });
  await page.keyboard.press('Alt+ArrowUp');
  await wv.locator('#detail-title', { hasText: /rollout 3/ }).waitFor({ timeout: 20_000 });
  await wb.shot('shortcuts');
  assert.ok(existsSync(log()));
});

wb.continued("S5. Export Trajectories… writes the filter's records byte for byte (on the machine the extension host runs on)", async () => {
  await page.locator('.tab', { hasText: 'Trajectories' }).click();
  const wv = wb.webview();
  await wv.locator('#f-reward').selectOption('failure');
  await wv.locator('.chip', { hasText: /failed/ }).waitFor({ timeout: 20_000 });
  await wv.locator('#export-trajectories').click();
  const out = join(run, 'failed-12-7.jsonl');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  await wb.shot('export-dialog');
  await input.fill(out);
  await page.keyboard.press('Enter');
  await toast(page, /Exported \d+ trajector(y|ies)/).waitFor({ timeout: 60_000 });
  const want = sourceLines().filter((l) => {
    if (!l.trim()) return false;
    const o = parseTolerant(l) as { iteration: number; group: number; reward: number };
    return o.iteration === KEY.iteration && o.group === KEY.group && o.reward <= 0;
  });
  assert.ok(want.length >= 1);
  assert.ok(readFileSync(out).equals(Buffer.from(want.map((l) => `${l}\n`).join(''))), 'the export is the source lines, byte for byte');
  assert.match(
    (await toast(page, /Exported/).textContent())!,
    new RegExp(`Exported ${want.length} trajector${want.length === 1 ? 'y' : 'ies'} \\(`),
  );
  assert.deepEqual(
    readdirSync(run).filter((f) => f.endsWith('.partial')),
    [],
    'no temporary file left',
  );
  await wb.shot('exported');
});

wb.continued('S6. Open Selection in a Notebook without the Jupyter extension says what it needs', async () => {
  await wb.webview().locator('#open-notebook').click();
  const t = toast(page, /needs the Jupyter extension \(ms-toolsai\.jupyter\)/);
  await t.waitFor({ timeout: 20_000 });
  await t.locator('.monaco-button', { hasText: 'Show Jupyter Extension' }).waitFor({ timeout: 10_000 });
  await wb.shot('notebook-needs-jupyter');
});

/** A link to the demo run in code-server's scheme, as Copy Link makes it. */
const linkTo = (view: LinkView): string => buildLink({ run: { kind: 'local', path: run }, view }, EXTENSION_ID, 'code-oss');

wb.journey(
  "S7. a dashboard metric's link opens the dashboard scrolled to that chart, highlighted; an unknown metric is refused",
  async () => {
    const wv = wb.webview();
    await openUrl(page, linkTo({ kind: 'run' }), wv.locator('.chart-card').first());
    // the last chart of the log's metrics (the Behaviour group after them is computed, not a metric a link names)
    const logCharts = wv.locator('section:not([aria-label="Behaviour"]) .chart-card');
    const names = await logCharts.evaluateAll((els) => els.map((e) => e.getAttribute('data-metric') ?? ''));
    const metric = names[names.length - 1]!;
    const frame = (await page.locator('iframe.webview.ready:visible').boundingBox())!;
    const card = wv.locator(`.chart-card[data-metric="${metric}"]`);
    assert.ok((await card.boundingBox())!.y > frame.y + frame.height, `the last chart (${metric}) starts below the panel`);
    await openUrl(page, linkTo({ kind: 'metric', metric }), wv.locator(`.chart-card[data-metric="${metric}"][data-focused="true"]`));
    // the charts drawn as they come into view grow the page for a moment: the page scrolls back each time
    const inView = async (): Promise<boolean> => {
      const box = (await card.boundingBox())!;
      return box.y >= frame.y - 1 && box.y + box.height <= frame.y + frame.height + 1;
    };
    await until(inView, `${metric} is scrolled into view`, 5_000);
    assert.equal(await wv.locator('.chart-card[data-focused]').count(), 1, 'and still outlined');
    await wb.shot('metric-link-focused');
    await wv.locator('.chart-card[data-focused]').waitFor({ state: 'detached', timeout: 10_000 });
    await openUrl(
      page,
      linkTo({ kind: 'metric', metric: 'ws/no_such_metric' }),
      toast(page, /link refused: metric "ws\/no_such_metric" is not in run run/),
    );
  },
);

wb.journey(
  'S8. a Hub link opens the run read in place; its Copy Link names repo and revision; elsewhere the link offers to download its logs',
  async () => {
    await page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').click();
    const repo = hubRepoItem(page).first();
    await repo.waitFor({ timeout: 30_000 });
    await rowMenu(page, [repo], 'Open Logs in Place');
    await page.locator('.monaco-list-row', { hasText: /on the Hub · 10800 trajectories/ }).waitFor({ timeout: 90_000 });
    // a link to the repo opens the run read in place here: no download offered
    const opened = buildLink(
      { run: { kind: 'hub', repo: REPO, revision: 'main' }, view: { kind: 'trajectories', iteration: 44, group: 3, rollout: 2 } },
      EXTENSION_ID,
      'code-oss',
    );
    const wv = wb.webview();
    await openUrl(page, opened, wv.locator('#detail-title', { hasText: 'iteration 44 · group 3 · rollout 2' }));
    assert.match((await wv.locator('#jump-label').textContent())!, /^opened from a link/);
    assert.equal(existsSync(wb.downloads), false, 'the run read in place is used, nothing downloaded');
    await wv.locator('.turn[data-turn="3"] .turn-copy-link').click();
    await toast(page, /Copied a link to 44 · 3 · 2, turn 3/).waitFor({ timeout: 20_000 });
    const hubLink = await page.evaluate<string>('navigator.clipboard.readText()');
    // the run read in place names the commit it read, not the branch it was opened at
    assert.match(
      hubLink,
      new RegExp(`^code-oss://${EXTENSION_ID}/open\\?repo=${REPO}&revision=[0-9a-f]{40}&iteration=44&group=3&rollout=2&turn=3$`),
    );
    assert.doesNotMatch(hubLink, /run=/, 'no local path in the link');
    await wb.shot('hub-link-copied');
    const other = await windowOn('elsewhere-hub');
    try {
      const ask = other.locator('.monaco-dialog-box', { hasText: /whose logs are not on this machine/ });
      await openUrl(other, hubLink, ask);
      await other.screenshot({ path: join(SHOTS, 'share-S8-offer-download.png') });
      assert.equal(existsSync(wb.downloads), false, 'nothing is downloaded before the user says so');
      await ask.locator('.monaco-button', { hasText: 'Download Logs' }).click();
      await webviewOf(other).locator('#detail-title', { hasText: 'iteration 44 · group 3 · rollout 2' }).waitFor({ timeout: 120_000 });
      assert.ok(
        readdirSync(wb.downloads, { recursive: true }).some((f) => String(f).endsWith('ws_credit_log.jsonl')),
        'the logs were downloaded',
      );
      await other.screenshot({ path: join(SHOTS, 'share-S8-hub-link-opened.png') });
    } catch (e) {
      await other.screenshot({ path: join(SHOTS, 'FAILED-share-S8-other-window.png') }).catch(() => undefined);
      throw e;
    } finally {
      await other.close();
    }
  },
);

/** Every file under `dir` (none when it is not there). */
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map((f) => join(dir, String(f)))
        .filter((f) => statSync(f).isFile())
    : [];

wb.journey(
  "S9. remote: a link lands in the server's extension host, the raw record is the server's file, the export is written there",
  async () => {
    const url = linkTo({ kind: 'trajectories', ...KEY });
    const wv = wb.webview();
    await openUrl(page, url, wv.locator('#detail-title', { hasText: `iteration ${KEY.iteration} · group ${KEY.group}` }));
    // the extension host's log is a file on the server (code-server's user data), not in the browser
    const logged = (): boolean =>
      filesUnder(join(wb.userData, 'logs')).some(
        (f) => f.endsWith('RL Runs.log') && readFileSync(f, 'utf8').includes(`link: code-oss://${EXTENSION_ID}/open?run=`),
      );
    await until(logged, "the link is in the extension host's log on the server");
    await wv.locator('.detail-raw').click();
    await page.locator('.tab[aria-selected="true"]', { hasText: 'ws_credit_log.jsonl' }).waitFor({ timeout: 120_000 });
    await wb.command('File: Copy Path of Active File');
    await page.waitForFunction(`navigator.clipboard.readText().then((t) => t === ${JSON.stringify(log())})`, undefined, {
      timeout: 10_000,
    });
    await page.locator('.tab', { hasText: 'Trajectories' }).click();
    await wb.webview().locator('#export-trajectories').click();
    const out = join(wb.work, 'server-side', 'export.csv');
    mkdirSync(join(wb.work, 'server-side'), { recursive: true });
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 20_000 });
    // the dialog sets its default name once it has listed the folder: fill again until the path stays
    await until(async () => {
      if ((await input.inputValue()) !== out) await input.fill(out);
      await settled(page);
      return (await input.inputValue()) === out;
    }, 'the export path stays in the dialog');
    // the dialog may still be listing the folder when the first Enter comes
    for (let i = 0; i < 3 && (await input.isVisible()); i++) {
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
    await toast(page, /Exported \d+ trajector(y|ies)/).waitFor({ timeout: 60_000 });
    assert.match(readFileSync(out, 'utf8').split('\r\n')[0]!, /^iteration,group,rollout,/, "the export is a file on the server's disk");
    await wb.shot('remote-export');
  },
);
