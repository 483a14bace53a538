/**
 * The one end-to-end harness: one workbench for the whole run (the Hub emulator on
 * 127.0.0.1, code-server from the machine's cache with the packaged extension, Debian's
 * Chromium driven by playwright-core), and each e2e file on it with its own demo run opened
 * in a fresh window. Each e2e file calls `workbench(...)` once at top level and writes its
 * journeys with `wb.journey`; every journey starts from the same known state. The benchmark
 * of the real workbench starts its browser with `launchBrowser` too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { BrowserContext, CDPSession, FrameLocator, Locator, Page } from 'playwright-core';

export const REPO = 'XunmeiLiu/openwebrl-ws-credit-beta0.4';
export const SHOTS = resolve('test-results', 'e2e');
const CODE_SERVER_HOME =
  process.env.RLRB_CODE_SERVER_HOME ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'rl-run-browser');
const CODE_SERVER = join(CODE_SERVER_HOME, 'code-server-4.100.3', 'node_modules', '.bin', 'code-server');
const CHROMIUM = '/usr/bin/chromium';

/**
 * A request to the emulator's control routes (each idempotent), asked again after a network error: a
 * kept-alive connection the server closes just as it is reused fails with "other side closed".
 */
async function emulatorFetch(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

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
type WriteUserSettings = (userData: string, settings: Record<string, unknown>) => void;

/** Rewrites code-server's user settings: the quiet defaults of scripts/codeServer.mjs and `settings`. */
async function writeUserSettings(userData: string, settings: Record<string, unknown>): Promise<void> {
  const { writeUserSettings: write } = (await import(resolve('scripts', 'codeServer.mjs'))) as { writeUserSettings: WriteUserSettings };
  write(userData, settings);
}
type StopCodeServer = (p: ChildProcess) => void;

/** Ends code-server and what it forked (its own process group); resolves when the server is gone. */
export async function stopCodeServer(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const { stopCodeServer: stop } = (await import(resolve('scripts', 'codeServer.mjs'))) as { stopCodeServer: StopCodeServer };
  const gone = new Promise<void>((res) => proc.once('exit', () => res()));
  stop(proc);
  await gone;
}

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

/** The workbench's one quick input (the palette, a quick pick, an input box). */
const QUICK_INPUT = '.quick-input-widget';

/** A row of a quick pick: the first holding `has` (when given) and not `not` (when given). */
export interface PickRow {
  has?: string | RegExp;
  not?: string;
}

/**
 * One answer to a quick input (`wait`: how long, in ms, it and its rows may take to show; 10 s
 * unless given). A string picks the first row holding it; a `PickRow` is clicked after `type`
 * is filled into the input (to filter the rows); `enter` fills an input box and presses Enter;
 * `check` clicks the rows of a multi-select pick in that order, then presses Enter.
 */
export type Pick = string | ({ wait?: number } & ((PickRow & { type?: string }) | { enter: string } | { check: readonly PickRow[] }));

/** The colour themes the e2e files switch between, and the class the workbench then wears. */
const THEME_CLASS = {
  'Light Modern': '.monaco-workbench.vs:not(.vs-dark)',
  'Dark Modern': '.monaco-workbench.vs-dark',
} as const;
export type ThemeName = keyof typeof THEME_CLASS;

/** One attempt at a palette command: F1, its title, a click on its row, and the palette gone (the click was seen). */
async function palette(page: Page, title: string, timeout: number): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator(`${QUICK_INPUT} input`);
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout });
  const before = await quickInputState(page);
  await row.click({ timeout });
  await advanced(page, before, `the palette's row ${title}`);
  await awayFromRows(page);
}

/**
 * The mouse moved off the quick input: left over a row, it opens that row's hover (a path), which
 * on a loaded machine is up before the next pick's click and covers the row below it.
 */
async function awayFromRows(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page
    .locator('.context-view .monaco-hover')
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => undefined);
}

function pickRow(page: Page, pick: PickRow): Locator {
  let rows = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`);
  if (pick.has !== undefined) rows = rows.filter({ hasText: pick.has });
  if (pick.not !== undefined) rows = rows.filter({ hasNotText: pick.not });
  return rows.first();
}

function describeRow(row: PickRow): string {
  const has = row.has !== undefined ? `has ${String(row.has)}` : 'the first row';
  return row.not !== undefined ? `${has}, not ${row.not}` : has;
}

function describePick(pick: Exclude<Pick, string>): string {
  if ('enter' in pick) return `enter ${pick.enter}`;
  if ('check' in pick) return `check ${pick.check.map(describeRow).join(' then ')}`;
  return describeRow(pick);
}

/** Answers the quick input shown (visible already): by its row, its check boxes and Enter, or its input and Enter. */
async function answer(page: Page, pick: Exclude<Pick, string>, timeout: number, what: string): Promise<void> {
  const input = page.locator(`${QUICK_INPUT} input`);
  const before = await quickInputState(page);
  if ('enter' in pick) {
    await input.fill(pick.enter, { timeout });
    await page.keyboard.press('Enter');
  } else if ('check' in pick) {
    for (const r of pick.check) {
      const row = pickRow(page, r);
      await waitForRow(page, row, timeout, what);
      await row.click({ timeout: Math.min(timeout, 5_000) });
      // the row says it is checked once the click was seen
      await row
        .and(page.locator('[aria-checked="true"]'))
        .waitFor({ timeout: 5_000 })
        .catch(() => {
          throw new Error(`${what}: the check of ${describeRow(r)} went unseen`);
        });
    }
    await page.keyboard.press('Enter');
  } else {
    if (pick.type !== undefined) await input.fill(pick.type, { timeout });
    const row = pickRow(page, pick);
    await waitForRow(page, row, timeout, what);
    await row.click({ timeout: Math.min(timeout, 5_000) });
  }
  await advanced(page, before, what);
  await awayFromRows(page);
}

/**
 * What tells one quick input from the next: its placeholder, its title and whether it is the
 * palette (its value starts with ">"); null when none is shown (or the page is reloading).
 */
async function quickInputState(page: Page): Promise<string | null> {
  // a string: the tests compile without the DOM's types
  return page
    .evaluate<string | null>(
      `(() => {
        const w = document.querySelector(${JSON.stringify(QUICK_INPUT)});
        if (!w || !w.checkVisibility()) return null;
        const input = w.querySelector('input');
        const title = w.querySelector('.quick-input-title');
        return [input ? input.placeholder : '', title ? title.textContent : '', input && input.value.startsWith('>') ? '>' : ''].join('|');
      })()`,
    )
    .catch(() => null);
}

/**
 * Polls `cond` until it holds: a wait on a condition the page cannot signal by itself (a file on
 * the server, a value the table settles on). Fails naming `what` after `timeout` ms.
 */
export async function until(cond: () => boolean | Promise<boolean>, what: string, timeout = 10_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not so within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** In a document: fonts loaded, no finite animation or transition running, then two frames painted. */
const STILL = `(async () => {
  await document.fonts.ready;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const moving = () => document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  for (let i = 0; i < 600 && moving(); i++) await frame();
  await frame();
  await frame();
})()`;

/**
 * Resolves once the workbench and every webview document in view are still (see STILL): what
 * a screenshot or a layout measure needs after a click, a scroll or a theme change.
 */
export async function settled(page: Page): Promise<void> {
  for (const f of page.frames()) {
    if (f !== page.mainFrame()) {
      const el = await f.frameElement().catch(() => null);
      if (!el || !(await el.isVisible().catch(() => false))) continue;
    }
    await f.evaluate(STILL).catch((e: unknown) => {
      // a frame that went away (a panel closed or redrawn) has nothing left to settle
      if (!f.isDetached()) throw e;
    });
  }
}

/** Waits until the quick input answered is gone (closed, or another one in its place): the answer was seen. */
async function advanced(page: Page, before: string | null, what: string): Promise<void> {
  await until(
    async () => (await quickInputState(page)) !== before,
    `${what}: the answer went unseen (the quick input stayed as it was)`,
    5_000,
  );
}

/** Waits for the row to show; fails at once when the quick input closes under us. */
async function waitForRow(page: Page, row: Locator, timeout: number, what: string): Promise<void> {
  await until(
    async () => {
      if (await row.isVisible()) return true;
      if ((await quickInputState(page)) === null) throw new Error(`${what}: the quick pick closed under us`);
      return false;
    },
    `${what}: the row`,
    timeout,
  );
}

/** The result of one e2e file, a JSON line in the file RLRB_E2E_SUMMARY names (read by scripts/e2e.mjs). */
export interface FileResult {
  file: string;
  journeys: number;
  failed: number;
  seconds: number;
}

/**
 * The one workbench of this process, shared by every e2e file it runs: the Hub emulator,
 * code-server and Chromium with one page, started for the first file and stopped after the
 * last. Each file gets its own demo run and opens it as a new window; in between, the
 * window is closed, the browser's storage for the workbench (global and workspace state,
 * secrets) is cleared and the extension's server-side storage removed, so that a file starts
 * from the state a fresh profile has, without paying for a new server and browser.
 */
class Shared {
  /** outside the checkout (short: code-server's sockets under TMPDIR must fit 108 bytes) */
  readonly work = mkdtempSync(join(tmpdir(), 'rlrb-e2e-'));
  readonly userData = join(this.work, 'user');
  /** the emulator serves REPO from here: a link to the `.hub-repo` of the file running */
  private readonly hubLink = join(this.work, 'hub-repo');
  emuUrl = '';
  port = 0;
  /** the file running: the focus log's lines go to it */
  current: Workbench | undefined;
  private emu: ChildProcess | undefined;
  private cs: ChildProcess | undefined;
  private ctx: BrowserContext | undefined;
  private pageOrUndefined: Page | undefined;
  /** the demo runs written so far, by their flags */
  private readonly templates = new Map<string, string>();
  /** the browser's console errors, newest last (a failure prints those of its journey) */
  private readonly consoleErrors: { at: number; text: string }[] = [];

  get page(): Page {
    if (!this.pageOrUndefined) throw new Error('the workbench is not started (use it inside a journey)');
    return this.pageOrUndefined;
  }

  /** Emulator, code-server and browser started (the first time), then `wb`'s run opened in a fresh window. */
  async open(wb: Workbench, settings: Record<string, unknown>): Promise<void> {
    if (!existsSync(CHROMIUM))
      throw new Error('Chromium is missing: run `npm run setup` (apt-get install chromium), or run only the unit tests: npm run test:unit');
    if (!existsSync(CODE_SERVER)) throw new Error('code-server is missing: run `npm run setup` (node scripts/codeServer.mjs install)');
    this.current = wb;
    rmSync(this.hubLink, { force: true });
    symlinkSync(join(wb.run, '.hub-repo'), this.hubLink);
    if (!this.emu) await this.startEmulator();
    else {
      const r = await emulatorFetch(`${this.emuUrl}/__emulator/rescan`, { method: 'POST' });
      assert.ok(r.ok, 'the emulator rescanned the repo');
    }
    settings = { 'rlRunBrowser.endpoint': this.emuUrl, ...settings };
    if (!this.cs) {
      const cs = await startCodeServer(this.work, wb.run, settings);
      this.cs = cs.proc;
      this.port = cs.port;
    } else {
      await this.freshProfile();
      await writeUserSettings(this.userData, settings);
    }
    const page = await this.browserPage();
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto(`http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(wb.run)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // the extension's contributions are registered once its view container shows: before
    // that the palette does not offer its commands yet
    await page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').waitFor({ timeout: 60_000 });
  }

  /**
   * The demo run written to `run`: generated once per set of demo flags, then copied (a copy
   * costs a tenth of writing it, and every file starts from the same bytes).
   */
  demoRun(run: string, args: readonly string[]): void {
    const key = args.join(' ');
    let template = this.templates.get(key);
    if (!template) {
      template = join(this.work, `template-${this.templates.size}`);
      const demo = spawnSync('node', ['dist/cli.js', 'demo', template, ...args], { encoding: 'utf8' });
      assert.equal(demo.status, 0, demo.stderr);
      this.templates.set(key, template);
    }
    cpSync(template, run, { recursive: true });
  }

  /** The browser's page, the browser started the first time (or again, when its page was closed). */
  private async browserPage(): Promise<Page> {
    if (this.pageOrUndefined && !this.pageOrUndefined.isClosed()) return this.pageOrUndefined;
    this.ctx ??= await launchBrowser(join(this.work, 'chromium'));
    const page = this.ctx.pages()[0] ?? (await this.ctx.newPage());
    this.pageOrUndefined = page;
    await this.logFocus(page);
    // the workbench's own errors (a tree provider that throws shows only an empty tree): kept for a failure's evidence
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      // a failed load names only its status: the address says which resource
      const text = `${m.text()}${m.location().url ? ` (${m.location().url})` : ''}`;
      appendFileSync(join(SHOTS, 'console-errors.log'), `${text.slice(0, 2000)}\n`);
      this.consoleErrors.push({ at: Date.now(), text });
    });
    page.on('dialog', (d) => {
      throw new Error(`a dialog opened: ${d.message()}`);
    });
    return page;
  }

  /**
   * The window of the file before closed (its extension host ends), the browser's storage of
   * the workbench's origin cleared and the extension's storage on the server removed: what a
   * new profile would have. Pages a journey opened and left are closed too.
   */
  private async freshProfile(): Promise<void> {
    if (!this.ctx) return;
    const page = this.page;
    for (const p of this.ctx.pages()) if (p !== page) await p.close().catch(() => undefined);
    await page.goto('about:blank');
    await this.extensionHostsGone();
    const cdp = await this.ctx.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin: `http://127.0.0.1:${this.port}`, storageTypes: 'all' });
    await cdp.detach();
    rmSync(join(this.userData, 'User', 'globalStorage'), { recursive: true, force: true, maxRetries: 3 });
  }

  /** Waits (up to 20 s) until code-server has no extension host left: none writes its storage after it is removed. */
  private async extensionHostsGone(): Promise<void> {
    const pgid = this.cs?.pid;
    if (pgid === undefined) return;
    const hosts = (): number =>
      spawnSync('ps', ['-eo', 'pgid=,args='], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((l) => l.trim().startsWith(`${pgid} `) && l.includes('--type=extensionHost')).length;
    await until(() => hosts() === 0, 'the extension host of the window closed before has ended', 20_000);
  }

  private async startEmulator(): Promise<void> {
    const emuPort = await freePort();
    this.emu = spawn('node', ['dist/emulator.js', '--repo', `${REPO}=${this.hubLink}`, '--port', String(emuPort)], { stdio: 'ignore' });
    this.emuUrl = `http://127.0.0.1:${emuPort}`;
    const emu = this.emu;
    await until(
      async () => {
        if (emu.exitCode !== null) throw new Error(`the Hub emulator exited with ${emu.exitCode}`);
        return fetch(`${this.emuUrl}/__emulator/faults`, { method: 'POST', body: '{}' }).then(
          (r) => r.ok,
          () => false,
        );
      },
      'the Hub emulator answers',
      30_000,
    );
  }

  /** What the user saw and what the workbench logged, kept in SHOTS (the work folder is removed). */
  async keepEvidence(what: string, since: number): Promise<void> {
    await this.pageOrUndefined?.screenshot({ path: join(SHOTS, `FAILED-${what}.png`) }).catch(() => undefined);
    const logs = join(this.userData, 'logs');
    if (existsSync(logs)) cpSync(logs, join(SHOTS, `FAILED-${what}-logs`), { recursive: true });
    // a CI run keeps only what is printed: the journey's console errors and the extension's own lines
    const lines = [
      ...this.consoleErrors.filter((e) => e.at >= since).map((e) => `console: ${e.text}`),
      ...(existsSync(logs) ? extensionLogLines(logs) : []),
    ];
    console.log(
      `e2e: ${what} failed; the workbench said:\n${
        lines
          .slice(-30)
          .map((l) => `  ${l.slice(0, 400)}`)
          .join('\n') || '  nothing'
      }`,
    );
  }

  /** Browser, code-server and emulator stopped; the work folder removed. */
  async stop(): Promise<void> {
    await this.ctx?.close().catch(() => undefined);
    const exited = (p: ChildProcess | undefined): Promise<void> =>
      new Promise((res) => (!p || p.exitCode !== null || p.signalCode !== null ? res() : p.once('exit', () => res())));
    this.emu?.kill();
    await Promise.all([stopCodeServer(this.cs), exited(this.emu)]);
    rmSync(this.work, { recursive: true, force: true, maxRetries: 3 });
  }

  private async logFocus(page: Page): Promise<void> {
    await page.exposeFunction('rlrbFocus', (what: string) => this.current?.mark(`focus ${what}`));
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

let shared: Shared | undefined;

/** One journey of a file: its name, what it does, and whether it closes the editors first. */
interface Journey {
  name: string;
  fn: () => Promise<void>;
  editors: 'close' | 'keep';
}

/** One e2e file on the shared workbench: its own demo run, settings and downloads folder, and its journeys. */
export class Workbench {
  /** this file's folder in the shared work folder */
  readonly work: string;
  readonly run: string;
  readonly downloads: string;
  /** code-server's user data (shared by the files of the run): its logs/ hold the extension host's log */
  readonly userData: string;
  readonly journeys: Journey[] = [];
  private step = 0;
  /** ms spent taking this file's screenshots (settling included) */
  private shotMs = 0;
  private cdp: CDPSession | undefined;
  private failed = 0;
  private readonly focus: string[] = [];
  private t0 = Date.now();
  private emuRequestsAtStart = 0;

  constructor(
    private readonly o: WorkbenchOptions,
    /** the file's name, in the suite's lines and summary */
    readonly file: string,
    private readonly started?: (wb: Workbench) => void,
  ) {
    shared ??= new Shared();
    this.work = mkdtempSync(join(shared.work, `${(o.name || 'journeys').slice(0, 12)}-`));
    this.run = join(this.work, 'run');
    this.downloads = join(this.work, 'downloads');
    this.userData = shared.userData;
  }

  get page(): Page {
    return sharedWorkbench().page;
  }

  get emuUrl(): string {
    return sharedWorkbench().emuUrl;
  }

  get port(): number {
    return sharedWorkbench().port;
  }

  /** The requests the emulator saw since this file started (it serves every file of the run). */
  async emulatorRequests<T>(): Promise<T[]> {
    const all = (await (await emulatorFetch(`${this.emuUrl}/__emulator/requests`)).json()) as T[];
    return all.slice(this.emuRequestsAtStart);
  }

  /** Demo run, then the shared workbench opened on it; resolves when the extension's view container is there. */
  async start(): Promise<void> {
    this.t0 = Date.now();
    mkdirSync(SHOTS, { recursive: true });
    sharedWorkbench().demoRun(this.run, this.o.demoArgs ?? ['--no-baseline']);
    await this.o.prepare?.(this.run);
    const tDemo = Date.now();
    try {
      await sharedWorkbench().open(this, {
        'rlRunBrowser.repos': [REPO],
        'rlRunBrowser.downloadDestination': this.downloads,
        'workbench.colorTheme': 'Default Dark Modern',
        ...this.o.settings,
      });
      this.emuRequestsAtStart = (await this.emulatorRequests()).length;
      const secs = (a: number, b: number): string => ((b - a) / 1000).toFixed(1);
      console.log(`e2e: ${this.file}: its run written in ${secs(this.t0, tDemo)} s, its window open in ${secs(tDemo, Date.now())} s`);
    } catch (e) {
      this.failed++;
      await sharedWorkbench().keepEvidence(`${this.o.name ? `${this.o.name}-` : ''}start`, tDemo);
      throw e;
    }
    this.started?.(this);
    if (process.env.RLRB_E2E_PROFILE) {
      this.cdp = await this.page.context().newCDPSession(this.page);
      await this.cdp.send('Profiler.enable');
      await this.cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
      await this.cdp.send('Profiler.start');
    }
  }

  /** This file's window closed (the next file opens its own) and its result written for the runner. */
  async stop(): Promise<void> {
    if (this.o.focusLog) writeFileSync(join(SHOTS, 'focus.log'), this.focus.join('\n') + '\n');
    if (this.cdp) {
      const { profile } = (await this.cdp.send('Profiler.stop')) as { profile: unknown };
      writeFileSync(join(SHOTS, `${this.file}.cpuprofile`), JSON.stringify(profile));
    }
    const seconds = (Date.now() - this.t0) / 1000;
    const result: FileResult = { file: this.file, journeys: this.journeys.length, failed: this.failed, seconds };
    console.log(
      `e2e: ${this.file}: ${this.journeys.length - this.failed} of ${this.journeys.length} journeys passed in ${seconds.toFixed(1)} s (${this.step} screenshots: ${(this.shotMs / 1000).toFixed(1)} s)`,
    );
    if (process.env.RLRB_E2E_SUMMARY) appendFileSync(process.env.RLRB_E2E_SUMMARY, JSON.stringify(result) + '\n');
  }

  /** A screenshot of the whole window, numbered in the order taken. */
  async shot(name: string): Promise<void> {
    const t0 = Date.now();
    await settled(this.page);
    this.step++;
    const prefix = this.o.name ? `${this.o.name}-` : '';
    await this.page.screenshot({ path: join(SHOTS, `${prefix}${String(this.step).padStart(2, '0')}-${name}.png`) });
    this.shotMs += Date.now() - t0;
  }

  /** The document of the visible webview panel. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready:visible').frameLocator('#active-frame');
  }

  /** Runs a palette command by its title. */
  async command(title: string, page: Page = this.page): Promise<void> {
    this.mark(`palette: ${title}`);
    // a workbench still settling (just after a reload) may close the palette under us: open it again
    for (let attempt = 1; ; attempt++) {
      try {
        await palette(page, title, attempt < 3 ? 10_000 : 30_000);
        return;
      } catch (e) {
        if (attempt >= 3) throw e;
        await page.keyboard.press('Escape');
      }
    }
  }

  /**
   * Runs a palette command, then answers each quick input it opens in turn (`picks`), and waits
   * for the quick input to close. When a step fails (the workbench closed the quick pick under
   * us as a webview took focus, or a click went unseen), it closes what is left open and starts
   * over from the command: three attempts, each marked in the focus log.
   */
  async commandPick(title: string, ...picks: readonly Pick[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.mark(`palette: ${title} (${picks.length} pick${picks.length === 1 ? '' : 's'}, attempt ${attempt})`);
      try {
        await this.commandPickOnce(title, picks, attempt < 3 ? 10_000 : 30_000);
        return;
      } catch (e) {
        this.mark(`palette: ${title} failed: ${String(e instanceof Error ? e.message : e).split('\n')[0]}`);
        if (attempt >= 3) throw e;
        await this.closeQuickInput();
        // the focus that closed the pick moves a moment later (a webview taking it): let the page settle first
        await settled(this.page);
      }
    }
  }

  private async commandPickOnce(title: string, picks: readonly Pick[], timeout: number): Promise<void> {
    const page = this.page;
    await palette(page, title, timeout);
    for (const [i, p] of picks.entries()) {
      const pick = typeof p === 'string' ? { has: p } : p;
      const wait = Math.max(timeout, pick.wait ?? 0);
      // the next quick input may come a while after the one before closed (the command reads first)
      await page.locator(`${QUICK_INPUT} input`).waitFor({ state: 'visible', timeout: wait });
      await answer(page, pick, wait, `pick ${i + 1} (${describePick(pick)})`);
    }
    await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout });
  }

  /** Escape until no quick input is open (never sent when none is: a webview would get it). */
  private async closeQuickInput(): Promise<void> {
    const widget = this.page.locator(`${QUICK_INPUT}:visible`);
    for (let i = 0; i < 3 && (await widget.count()) > 0; i++) {
      await this.page.keyboard.press('Escape');
      await widget
        .first()
        .waitFor({ state: 'hidden', timeout: 2_000 })
        .catch(() => undefined);
    }
  }

  /** The colour theme picked from 'Preferences: Color Theme'; resolves once the workbench and the webviews in view wear it, repainted. */
  async theme(name: ThemeName): Promise<void> {
    await this.commandPick('Preferences: Color Theme', { has: name, type: name });
    await this.page.locator(THEME_CLASS[name]).waitFor({ timeout: 30_000 });
    // each webview in view wears it too (VS Code sets its body's class), then is repainted
    const kind = name.startsWith('Light') ? 'vscode-light' : 'vscode-dark';
    await until(() => this.webviewsWear(kind), `the webviews in view wear ${name}`, 30_000);
    await settled(this.page);
  }

  /** Whether every webview document in view that wears a theme class wears `kind`. */
  private async webviewsWear(kind: string): Promise<boolean> {
    for (const f of this.page.frames()) {
      if (f === this.page.mainFrame()) continue;
      const el = await f.frameElement().catch(() => null);
      if (!el || !(await el.isVisible().catch(() => false))) continue;
      const body = await f.evaluate<string>('document.body ? document.body.className : ""').catch(() => '');
      if (/\bvscode-(light|dark|high-contrast)\b/.test(body) && !body.split(/\s+/).includes(kind)) return false;
    }
    return true;
  }

  /** Sets the emulator's faults (`{}`: none). */
  async faults(f: Record<string, unknown>): Promise<void> {
    const r = await emulatorFetch(`${this.emuUrl}/__emulator/faults`, { method: 'POST', body: JSON.stringify(f) });
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

  /** A journey: from a known state (no editor open); registered now, run on the shared workbench after the files before. */
  journey(name: string, fn: () => Promise<void>, editors: 'close' | 'keep' = 'close'): void {
    this.journeys.push({ name, fn, editors });
  }

  /** Runs one journey from the known state; on failure, a screenshot of what the user saw. */
  async runJourney(j: Journey): Promise<void> {
    const since = Date.now();
    try {
      this.mark(`journey ${j.name.slice(0, 3)}`);
      await this.knownState(j.editors);
      await j.fn();
    } catch (e) {
      this.failed++;
      const prefix = this.o.name ? `${this.o.name}-` : '';
      // what the user saw and the workbench's logs (the extension host's among them)
      await sharedWorkbench().keepEvidence(`${prefix}${j.name.slice(0, 3).replace(/\W/g, '')}`, since);
      throw e;
    }
  }

  /** A journey that goes on with the panels the one before left open. */
  continued(name: string, fn: () => Promise<void>): void {
    this.journey(name, fn, 'keep');
  }

  /** The palette command that opens one trajectory, answered with "iteration group rollout". */
  async openTrajectory(key: string): Promise<void> {
    await this.commandPick('RL Runs: Open Trajectory by Iteration/Group/Rollout…', { enter: key });
  }
}

/** The RL Runs output channel's lines and the extension hosts' errors and warnings, from code-server's logs folder. */
function extensionLogLines(logs: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/RL Runs\.log$/.test(e.name)) out.push(...tail(p, () => true).map((l) => `RL Runs: ${l}`));
      else if (/exthost\.log$/i.test(e.name)) out.push(...tail(p, (l) => /\[(error|warning)\]/.test(l)).map((l) => `${e.name}: ${l}`));
    }
  };
  const tail = (file: string, keep: (l: string) => boolean): string[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() && keep(l))
      .slice(-15);
  walk(logs);
  return out;
}

function sharedWorkbench(): Shared {
  shared ??= new Shared();
  return shared;
}

/** The e2e files of this process, in the order they run. */
const files: Workbench[] = [];
/** The name the next `workbench(...)` call gets (the suite entry sets it before it loads each file). */
let nextFile: string | undefined;

/** Names the e2e file loaded next (scripts/e2e.mjs's suite entry calls it before each file). */
export function e2eFile(name: string): void {
  nextFile = name;
}

/**
 * The workbench of this e2e file, called once at its top level; its journeys (`wb.journey`)
 * are registered as the file loads. Once every file of the process has loaded, the suite is
 * registered: one `describe` per file, in load order, each opening its own run on the shared
 * workbench before its first journey, and the workbench stopped after the last file.
 */
export function workbench(o: WorkbenchOptions, started?: (wb: Workbench) => void): Workbench {
  const wb = new Workbench(o, nextFile ?? (o.name || 'journeys'), started);
  nextFile = undefined;
  if (files.push(wb) === 1) setImmediate(registerSuite);
  return wb;
}

function registerSuite(): void {
  void describe('e2e on one workbench', () => {
    after(() => shared?.stop());
    for (const wb of files) {
      void describe(wb.file, () => {
        before(() => wb.start());
        after(() => wb.stop());
        // a journey that hangs fails after 15 minutes rather than holding the run
        for (const j of wb.journeys) test(j.name, { timeout: 15 * 60_000 }, () => wb.runJourney(j));
      });
    }
  });
}
