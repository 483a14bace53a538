/**
 * The one end-to-end harness: the demo run in a fresh folder, the Hub emulator on
 * 127.0.0.1 serving its repo, code-server from .cache/ with the packaged extension, and
 * Debian's Chromium driven by playwright-core. Each e2e file calls `workbench(...)` once at
 * top level (it registers the suite's `before` and `after`) and writes its journeys with
 * `wb.journey`; every journey starts from the same known state. The benchmark of the real
 * workbench starts its browser with `launchBrowser` too.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';

export const REPO = 'XunmeiLiu/openwebrl-ws-credit-beta0.4';
export const SHOTS = resolve('test-results', 'e2e');
const CODE_SERVER = resolve('.cache', 'code-server-4.100.3', 'node_modules', '.bin', 'code-server');
const CHROMIUM = '/usr/bin/chromium';

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
export async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => res(p));
    });
  });
}

/** Debian's Chromium, headless, with its profile in `profile` (never a downloaded browser). */
export async function launchBrowser(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
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
}

type StartCodeServer = (o: Record<string, unknown>) => Promise<ChildProcess>;

/** code-server on a free port with its own user data, the VSIX installed, `folder` open. */
export async function startCodeServer(
  work: string,
  folder: string,
  settings: Record<string, unknown>,
  extensionsDir = join(work, 'extensions'),
  /** null: install nothing (the extensions folder holds it already) */
  vsix: string | null = resolve('dist', 'rl-run-browser.vsix'),
): Promise<{ proc: ChildProcess; port: number }> {
  const port = await freePort();
  const { startCodeServer: start } = (await import(resolve('scripts', 'codeServer.mjs'))) as { startCodeServer: StartCodeServer };
  const proc = await start({ port, userData: join(work, 'user'), extensionsDir, folder, vsix: vsix ?? undefined, settings });
  return { proc, port };
}

export interface WorkbenchOptions {
  /** the prefix of this file's screenshots: `<name>-NN-<shot>.png` ('' for none) */
  name: string;
  /** `rlrb demo` flags; `--no-baseline` unless given */
  demoArgs?: readonly string[];
  /** edits the demo run (its folder given) before anything starts */
  prepare?: (run: string) => void | Promise<void>;
  /** more user settings; the emulator's endpoint, the repo, the download folder and the dark theme are set */
  settings?: Record<string, unknown>;
  /** a page-side log of where focus goes (for journeys that fight over focus), written to SHOTS/focus.log */
  focusLog?: boolean;
}

/** What a journey may leave open: a quick input, a modal dialog, notification toasts. */
const LEFT_OPEN = '.quick-input-widget:visible, .monaco-dialog-box:visible, .notifications-toasts.visible .notification-toast';

/** The running workbench of one e2e file, and what its journeys do with it. */
export class Workbench {
  /** a fresh folder per file, outside the checkout (short: code-server's sockets under TMPDIR must fit 108 bytes) */
  readonly work = mkdtempSync(join(tmpdir(), 'rlrb-e2e-'));
  readonly run = join(this.work, 'run');
  readonly downloads = join(this.work, 'downloads');
  emuUrl = '';
  port = 0;
  private pageOrUndefined: Page | undefined;
  private ctx: BrowserContext | undefined;
  private emu: ChildProcess | undefined;
  private cs: ChildProcess | undefined;
  private step = 0;
  private readonly focus: string[] = [];
  private readonly t0 = Date.now();

  constructor(private readonly o: WorkbenchOptions) {}

  get page(): Page {
    if (!this.pageOrUndefined) throw new Error('the workbench is not started (use it inside a journey)');
    return this.pageOrUndefined;
  }

  /** Demo run, emulator, code-server, browser; resolves when the extension's view container is there. */
  async start(): Promise<void> {
    if (!existsSync(CHROMIUM))
      throw new Error('Chromium is missing: run `npm run setup` (apt-get install chromium), or run only the unit tests: npm run test:unit');
    if (!existsSync(CODE_SERVER)) throw new Error('code-server is missing: run `npm run setup` (node scripts/codeServer.mjs install)');
    mkdirSync(SHOTS, { recursive: true });
    const demo = spawnSync('node', ['dist/cli.js', 'demo', this.run, ...(this.o.demoArgs ?? ['--no-baseline'])], { encoding: 'utf8' });
    assert.equal(demo.status, 0, demo.stderr);
    await this.o.prepare?.(this.run);
    await this.startEmulator();
    const cs = await startCodeServer(this.work, this.run, {
      'rlRunBrowser.endpoint': this.emuUrl,
      'rlRunBrowser.repos': [REPO],
      'rlRunBrowser.downloadDestination': this.downloads,
      'workbench.colorTheme': 'Default Dark Modern',
      ...this.o.settings,
    });
    this.cs = cs.proc;
    this.port = cs.port;
    this.ctx = await launchBrowser(join(this.work, 'chromium'));
    const page = this.ctx.pages()[0] ?? (await this.ctx.newPage());
    this.pageOrUndefined = page;
    if (this.o.focusLog) await this.logFocus(page);
    page.on('dialog', (d) => {
      throw new Error(`a dialog opened: ${d.message()}`);
    });
    await page.goto(`http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(this.run)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // the extension's contributions are registered once its view container shows: before
    // that the palette does not offer its commands yet
    await page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').waitFor({ timeout: 60_000 });
  }

  private async startEmulator(): Promise<void> {
    const emuPort = await freePort();
    this.emu = spawn('node', ['dist/emulator.js', '--repo', `${REPO}=${join(this.run, '.hub-repo')}`, '--port', String(emuPort)], {
      stdio: 'ignore',
    });
    this.emuUrl = `http://127.0.0.1:${emuPort}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const up = await fetch(`${this.emuUrl}/__emulator/faults`, { method: 'POST', body: '{}' }).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      if (this.emu.exitCode !== null) throw new Error(`the Hub emulator exited with ${this.emu.exitCode}`);
      if (Date.now() > deadline) throw new Error('the Hub emulator did not answer within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Browser, code-server and emulator stopped; the work folder removed. */
  async stop(): Promise<void> {
    if (this.o.focusLog) writeFileSync(join(SHOTS, 'focus.log'), this.focus.join('\n') + '\n');
    await this.ctx?.close().catch(() => undefined);
    const exited = (p: ChildProcess | undefined): Promise<void> =>
      new Promise((res) => (!p || p.exitCode !== null || p.signalCode !== null ? res() : p.once('exit', () => res())));
    this.cs?.kill();
    this.emu?.kill();
    await Promise.all([exited(this.cs), exited(this.emu)]);
    rmSync(this.work, { recursive: true, force: true, maxRetries: 3 });
  }

  /** A screenshot of the whole window, numbered in the order taken. */
  async shot(name: string): Promise<void> {
    this.step++;
    const prefix = this.o.name ? `${this.o.name}-` : '';
    await this.page.screenshot({ path: join(SHOTS, `${prefix}${String(this.step).padStart(2, '0')}-${name}.png`) });
  }

  /** The document of the visible webview panel. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready:visible').frameLocator('#active-frame');
  }

  /** Runs a palette command by its title. */
  async command(title: string): Promise<void> {
    this.mark(`palette: ${title}`);
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    await this.page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first().click();
  }

  /** Sets the emulator's faults (`{}`: none). */
  async faults(f: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${this.emuUrl}/__emulator/faults`, { method: 'POST', body: JSON.stringify(f) });
    assert.ok(r.ok, `the emulator refused the faults ${JSON.stringify(f)}`);
  }

  /** A line of the focus log (kept only with `focusLog`). */
  mark(what: string): void {
    if (this.o.focusLog) this.focus.push(`${((Date.now() - this.t0) / 1000).toFixed(2)} ${what}`);
  }

  /**
   * The state every journey starts from: the emulator without faults, and nothing left open
   * (Escape closes a quick input or a dialog first, then hides the toasts; the ones of a
   * journey before would otherwise match the next one's toast locators). Unless the journey
   * goes on with the panel the one before left, no editor either: the workbench hands focus
   * back to the active editor when a quick input or a dialog closes, and a webview takes it
   * a moment later (a message to its frame), closing the palette opened in between.
   */
  async knownState(editors: 'close' | 'keep'): Promise<void> {
    const page = this.page;
    await this.faults({});
    for (let i = 0; i < 5 && (await page.locator(LEFT_OPEN).count()) > 0; i++) {
      this.mark(`escape: ${await page.locator(LEFT_OPEN).count()} left open`);
      await page.keyboard.press('Escape');
      await page
        .locator(LEFT_OPEN)
        .first()
        .waitFor({ state: 'hidden', timeout: 2_000 })
        .catch(() => undefined);
    }
    assert.equal(await page.locator(LEFT_OPEN).count(), 0, 'a quick input, a dialog or a toast is still open');
    const tabs = page.locator('.editor-group-container .tab');
    if (editors === 'close' && (await tabs.count()) > 0) {
      await this.command('View: Close All Editors');
      await tabs.first().waitFor({ state: 'detached', timeout: 10_000 });
    }
  }

  /** A journey: from a known state (no editor open); on failure, a screenshot of what the user saw. */
  journey(name: string, fn: () => Promise<void>, editors: 'close' | 'keep' = 'close'): void {
    test(name, async () => {
      try {
        this.mark(`journey ${name.slice(0, 3)}`);
        await this.knownState(editors);
        await fn();
      } catch (e) {
        const prefix = this.o.name ? `${this.o.name}-` : '';
        await this.page
          .screenshot({ path: join(SHOTS, `FAILED-${prefix}${name.slice(0, 3).replace(/\W/g, '')}.png`) })
          .catch(() => undefined);
        throw e;
      }
    });
  }

  /** A journey that goes on with the panels the one before left open. */
  continued(name: string, fn: () => Promise<void>): void {
    this.journey(name, fn, 'keep');
  }

  /** The palette command that opens one trajectory, answered with "iteration group rollout". */
  async openTrajectory(key: string): Promise<void> {
    await this.command('RL Runs: Open Trajectory by Iteration/Group/Rollout…');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(key, { timeout: 10_000 });
    await this.page.keyboard.press('Enter');
  }

  private async logFocus(page: Page): Promise<void> {
    await page.exposeFunction('rlrbFocus', (what: string) => this.mark(`focus ${what}`));
    // a string: the tests compile without the DOM's types
    await page.addInitScript(`(() => {
    const describe = (e) => {
      if (!(e instanceof Element)) return 'nothing';
      const cls = typeof e.className === 'string' ? e.className.split(' ').slice(0, 3).join('.') : '';
      const label = e.getAttribute('aria-label');
      const where = e.closest('.quick-input-widget, .monaco-dialog-box, .notifications-toasts, .pane, .editor-group-container, .part');
      return e.tagName.toLowerCase() + '.' + cls + (label ? ' "' + label.slice(0, 40) + '"' : '') + ' in ' + (where ? where.className.split(' ').slice(0, 2).join('.') : '?');
    };
    document.addEventListener('focusin', (e) => void window.rlrbFocus(describe(e.target)), true);
    document.addEventListener('focusout', (e) => { if (!e.relatedTarget) void window.rlrbFocus('left ' + describe(e.target)); }, true);
  })()`);
  }
}

/**
 * The workbench of this e2e file: started before its first journey (then `started` runs),
 * stopped after its last. One hook each: Node runs a file's top-level `before` hooks
 * concurrently, so a second hook could not count on the first having finished.
 */
export function workbench(o: WorkbenchOptions, started?: (wb: Workbench) => void): Workbench {
  const wb = new Workbench(o);
  before(async () => {
    await wb.start();
    started?.(wb);
  });
  after(() => wb.stop());
  return wb;
}
