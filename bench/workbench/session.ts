/**
 * One real workbench for the benchmark: code-server (from .cache, started by the e2e
 * harness's functions) with the packaged extension, and Debian's Chromium through
 * playwright-core with the timing probe in every document.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { launchBrowser, startCodeServer, stopCodeServer } from '../../test/e2e/harness';
import { initScript } from './probe';

export interface Workbench {
  ctx: BrowserContext;
  port: number;
  /** The Chromium profile folder: it names the browser's processes, for memory. */
  profile: string;
  /** Times the pages reported through `window.__rlrbMark(name, t)` (a frame may be gone before Node reads it). */
  marks: Map<string, number>;
  close: () => Promise<void>;
}

/** Installs `vsix` into `extensionsDir` with code-server's CLI (its user data under `work`, as startCodeServer's). */
async function install(work: string, extensionsDir: string, vsix: string): Promise<void> {
  const { codeServerBin } = (await import(resolve('scripts', 'codeServer.mjs'))) as { codeServerBin: string };
  const userData = join(work, 'user');
  const tmp = join(userData, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const args = ['--user-data-dir', userData, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'];
  const r = spawnSync(codeServerBin, args, { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`installing ${vsix} into code-server failed: ${r.stderr || r.stdout}`);
}

/**
 * Starts code-server with `extensionsDir` (the VSIX installed there when given, and the
 * `extra` ones, e.g. the floor's) and a browser, as the e2e harness does.
 */
export async function startWorkbench(
  work: string,
  extensionsDir: string,
  vsix: string | undefined,
  folder: string,
  extra: readonly string[] = [],
): Promise<Workbench> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const x of extra) await install(work, extensionsDir, x);
  const settings = { 'workbench.colorTheme': 'Default Dark Modern', 'rlRunBrowser.repos': [] };
  const { proc: cs, port } = await startCodeServer(work, folder, settings, extensionsDir, vsix ?? null);
  const profile = join(work, 'chromium');
  const ctx = await launchBrowser(profile);
  await ctx.addInitScript(initScript());
  const marks = new Map<string, number>();
  await ctx.exposeBinding('__rlrbMark', (_src, name: string, t: number) => {
    marks.set(name, t);
  });
  return {
    ctx,
    marks,
    port,
    profile,
    close: async () => {
      await ctx.close().catch(() => undefined);
      await stopCodeServer(cs);
    },
  };
}

/** Opens a window on `folder` and waits until the RL Runs view shows the run indexed. */
export async function openWindow(wb: Workbench, folder: string): Promise<Page> {
  const page = await wb.ctx.newPage();
  await page.goto(`http://127.0.0.1:${wb.port}/?folder=${encodeURIComponent(folder)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  const icon = page.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
  await icon.waitFor({ timeout: 60_000 });
  await icon.click();
  // the local run's row: "N trajectories · M iterations", without "· indexing P%"
  const indexed = page.locator('.monaco-list-row', { hasText: /\d+ trajectories · \d+ iterations/ }).filter({ hasNotText: 'indexing' });
  await indexed.first().waitFor({ timeout: 300_000 });
  return page;
}

/** Polls `fn` every 25 ms until it gives a value (the time it gives was taken in the page). */
export async function until<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The inner webview frame whose check `key` passed after `t0`, with that time. */
export async function seenAfter(page: Page, key: string, t0: number, timeoutMs?: number): Promise<{ frame: Frame; t1: number }> {
  try {
    return await until(
      async () => {
        for (const frame of page.frames()) {
          const t = await frame.evaluate(`(window.__rlrbSeen || {})[${JSON.stringify(key)}]`).catch(() => undefined);
          if (typeof t === 'number' && t > t0) return { frame, t1: t };
        }
        return undefined;
      },
      `${key} content`,
      timeoutMs,
    );
  } catch (e) {
    // what each frame saw, to tell a probe that missed from a panel that never came
    const seen = await Promise.all(
      page.frames().map(async (f) =>
        [
          f
            .url()
            .replace(/^.*\/static\/out\//, '')
            .slice(0, 80),
          await f
            .evaluate(
              "JSON.stringify({ probe: Object.keys(window).filter((k) => k.startsWith('__rlrb')), seen: window.__rlrbSeen, marks: window.__rlrbMarks, body: document.body && document.body.innerHTML.length })",
            )
            .catch(String),
        ].join(' '),
      ),
    );
    throw new Error(`${(e as Error).message} after ${t0}; frames:\n${seen.join('\n')}`);
  }
}

/**
 * Opens the command palette and types `text`: F1, again after a click on the active tab
 * when the palette did not open or closed before the typing (a webview shown again takes
 * the focus a moment later, which closes it).
 */
async function openPalette(page: Page, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let n = 0; ; n++) {
    await page.keyboard.press('F1');
    const typed = await input.fill(text, { timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (typed) return;
    if (n >= 3) throw new Error(`F1 did not open the command palette for ${text}`);
    const tab = page.locator('.tabs-container .tab.active').first();
    await ((await tab.count()) ? tab.click() : page.keyboard.press('Escape'));
  }
}

/** Runs a palette command; resolves with the page's time of the Enter that ran it. */
export async function palette(page: Page, title: string): Promise<number> {
  await openPalette(page, `>${title}`);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first().waitFor({ timeout: 15_000 });
  await page.evaluate('window.__rlrbArm()');
  await page.keyboard.press('Enter');
  return until(async () => (await page.evaluate<number>('window.__rlrbT0')) || undefined, 'the Enter keydown');
}

/** Closes every editor, then lets the machine settle. */
export async function closeAll(page: Page): Promise<void> {
  await openPalette(page, '>View: Close All Editors');
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: 'View: Close All Editors' })
    .first()
    .waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page
    .locator('.tabs-container .tab')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForTimeout(400);
}
