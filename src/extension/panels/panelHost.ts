/**
 * What every panel shares: one class that owns its WebviewPanel, its html, the checked
 * message pump, its disposables, posting, and the state it remembers. Every kind of panel
 * extends it with its own protocol, state and push; `panelRegistry.ts` opens and restores them.
 */
import type { TrajectoryQuery } from '../../shared/shapes';
import * as vscode from 'vscode';
import type { PanelKind, PanelState, TrajectoryKey } from '../../shared/protocol';
import type { RunTrajectoryKey } from '../../shared/protocol/task';
import type { ShareAction } from '../../shared/protocol/trajectories';
import type { ShareArgs } from '../share/shareArgs';
import type { LiveRun, RunService } from '../runs/runService';
import { Disposable, toDisposable } from '../dispose';
import { buildHtml } from './html';
import { LoadWatchdog } from './loadWatchdog';
import { parseShowProblems, rawMessage } from '../../shared/protocol';
import { problemsMessage, runProblems } from '../problems/dataProblems';
import { background } from '../background';
import type { FailureLog } from '../background';

export const TITLES: Readonly<Record<PanelKind, string>> = {
  metrics: 'Metrics',
  trajectories: 'Trajectories',
  report: 'Run report',
};

/** Pinned metrics of a run, remembered per workspace. */
export interface PinStore {
  get(root: string): string[];
  set(root: string, pinned: string[]): Promise<void>;
}

/** What any panel keeps across reloads: its kind and the run it shows first (`PanelState` for the run panels). */
export interface HostState {
  kind: string;
  root: string;
}

/** A panel's page: its title, its script (`dist/webview/<script>.js`), its stylesheets in media/ after webview.css. */
export interface PanelPage {
  title: string;
  script: string;
  styles: string[];
  codicons: boolean;
}

/** How a panel opens another panel, or a row in the tree (a service, not a command id). */
export interface PanelNavigator {
  open(kind: PanelKind, root: string): Promise<unknown>;
  openTrajectories(root: string, query: TrajectoryQuery | undefined, label: string | null, select?: TrajectoryKey): Promise<void>;
  revealRow(root: string, row: number): Promise<void>;
  /** the task view of `task` over 1 or 2 runs */
  openTask(task: string, runs: string[]): void;
  /** a task's eval episodes at a checkpoint, each run's in its trajectory browser (the first in the active column, the next beside it) */
  openEvalEpisodes(roots: readonly string[], task: string, iteration: number): Promise<void>;
  /** two trajectories side by side */
  openSideBySide(left: RunTrajectoryKey, right: RunTrajectoryKey): void;
  /** a share button of the browser (copy link, raw record, export, notebook) */
  share(action: ShareAction, args: ShareArgs): Promise<void>;
}

/** What each share action does, given by the share feature. */
export type ShareActions = Readonly<Record<ShareAction, (args: ShareArgs) => Promise<void>>>;

/** Everything a panel of any kind needs from outside itself (the dashboard's pins come to it alone). */
export interface PanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly runs: RunService;
  readonly navigate: PanelNavigator;
  /** a line for the RL Runs output channel (what the panels do on their own, such as loading a blank page again, and what failed) */
  readonly log: FailureLog;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** A panel's own stylesheet in media/, after the shared one. */
const PANEL_CSS: Partial<Record<PanelState['kind'], string>> = {
  metrics: 'dashboard.css',
  report: 'report.css',
  trajectories: 'trajectories.css',
};

const isRunKind = (k: string): k is PanelKind => k in TITLES;

/** The page of a run panel (metrics, trajectories, report). */
function runPage(kind: string): PanelPage {
  if (!isRunKind(kind)) throw new Error(`no page for the panel kind ${kind}`);
  const css = PANEL_CSS[kind];
  // codicons only where the page shows them (the dashboard's pins, the browser's turn marks)
  return { title: TITLES[kind], script: kind, styles: css ? [css] : [], codicons: kind !== 'report' };
}

function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: PanelPage, state: HostState): string {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const media = (f: string): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', f)).toString();
  return buildHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, `${page.script}.js`)).toString(),
    styleUris: [
      ...(page.codicons ? [webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.css')).toString()] : []),
      media('webview.css'),
      ...page.styles.map(media),
    ],
    title: page.title,
    initialState: state,
  });
}

/** How long a visible page may take to say `ready` before it is loaded again (a page says it within a second or two), and how often. */
const LOAD_TIMEOUT_MS = 10_000;
const LOAD_TRIES = 1;

/** Every reload of a panel's page failed too: the user is told, with the way out that works. */
async function notLoaded(title: string): Promise<void> {
  const reload = 'Reload Window';
  const pick = await vscode.window.showWarningMessage(
    `RL Runs: the panel "${title}" did not load (it stayed blank, in a new webview too). ` + 'Reloading the window usually mends it.',
    reload,
  );
  if (pick === reload) await vscode.commands.executeCommand('workbench.action.reloadWindow');
}

/** What a panel is given by its set: the shared services, where it remembers its state, how it leaves the set. */
export interface PanelSite<S extends HostState> {
  readonly deps: PanelDeps;
  remember(state: S): void;
  gone(p: OpenPanel<S['kind']>): void;
  /** opens `state` again in a new webview in `column` (a page that stayed blank in this one); none on a panel opened so */
  readonly reopen?: (state: S, column: vscode.ViewColumn | undefined) => void;
}

/** A panel as its set sees it. */
export interface OpenPanel<K extends string = PanelKind> extends vscode.Disposable {
  readonly kind: K;
  readonly root: string;
  readonly panel: vscode.WebviewPanel;
}

/**
 * The base of every panel. `In` is what its webview may send (checked by `parse` on
 * arrival, anything else dropped), `Out` what the host sends it, `S` the state it keeps
 * (a panel of another kind than the run panels' passes its `page`).
 */
export abstract class PanelHost<In extends { type: string }, Out extends { type: string }, S extends HostState = PanelState>
  extends Disposable
  implements OpenPanel<S['kind']>
{
  protected readonly deps: PanelDeps;
  /** the page listens (it sent `ready`) */
  protected ready = false;
  private pushTimer: NodeJS.Timeout | undefined;
  /** the push running now (undefined: none) */
  private pushing: Promise<void> | undefined;
  /** the push asked for while one runs: one more after it, with the state then (`initial` if any asker said so) */
  private nextPush: { done: Promise<void>; initial: boolean } | undefined;
  private readyWaiters: (() => void)[] = [];
  private readonly watchdog: LoadWatchdog;

  constructor(
    readonly panel: vscode.WebviewPanel,
    protected readonly state: S,
    private readonly site: PanelSite<S>,
    parse: (v: unknown) => In | undefined,
    page: PanelPage = runPage(state.kind),
  ) {
    super();
    const deps = site.deps;
    this.deps = deps;
    const live = deps.runs.get(state.root);
    panel.title = `${page.title}: ${live?.run.location.name ?? state.root.split('/').pop()}`;
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'icon.svg');
    panel.webview.options = webviewOptions(deps.extensionUri);
    panel.webview.html = panelHtml(panel.webview, deps.extensionUri, page, state);
    this.watchdog = this.watchLoad(page);
    this._register(this.watchdog);
    this._register(panel.onDidChangeViewState(() => this.watchdog.visibilityChanged()));
    this._register(
      panel.webview.onDidReceiveMessage((m: unknown) => {
        const raw = rawMessage(m);
        if (raw && parseShowProblems(raw)) return void vscode.commands.executeCommand('workbench.actions.view.problems');
        const msg = parse(m);
        if (msg) this.background(this.receive(msg), `cannot answer the page's ${msg.type}`);
      }),
    );
    this._register(
      deps.runs.onDidChange((e) => {
        if (e.kind === 'list' || this.shows(e.root)) this.schedulePush();
      }),
    );
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(toDisposable(() => clearTimeout(this.pushTimer)));
  }

  get kind(): S['kind'] {
    return this.state.kind;
  }
  get root(): string {
    return this.state.root;
  }

  /** Whether a change of the run at `root` changes what this panel shows (the run it was opened on). */
  protected shows(root: string | undefined): boolean {
    return root === this.state.root;
  }

  /** This panel's kind of message, after its check. */
  protected abstract onMessage(m: In): Promise<void>;
  /** Sends the page everything it shows; `initial` after `ready` or a navigation. Called by `refresh` only. */
  protected abstract push(initial: boolean): Promise<void>;

  /**
   * Shows the page what the panel holds now, by `push`: one push at a time, in the order asked. A
   * push reads logs and runs in its own time, and two at once could finish in the other order (an
   * overlay added and removed again would stay drawn); asked while one runs, one more push follows
   * it, however many times it was asked meanwhile. Resolves once a push begun after the ask is done.
   */
  protected refresh(initial = false): Promise<void> {
    const queued = this.nextPush;
    if (queued) {
      queued.initial ||= initial;
      return queued.done;
    }
    const running = this.pushing;
    if (!running) return this.startPush(initial);
    const next = { initial, done: Promise.resolve() };
    next.done = running
      .catch(() => undefined)
      .then(() => {
        this.nextPush = undefined;
        return this.startPush(next.initial);
      });
    this.nextPush = next;
    return next.done;
  }

  private startPush(initial: boolean): Promise<void> {
    // the next push starts only once this one has settled (`refresh`): none replaces it meanwhile
    this.pushing = this.push(initial).finally(() => {
      this.pushing = undefined;
    });
    return this.pushing;
  }

  /** Lets `work` go on without waiting; its failure is a line in the output channel, after the panel's title. */
  protected background(work: PromiseLike<unknown>, what: string): void {
    background(work, this.deps.log, `${this.panel.title}: ${what}`);
  }

  private async receive(m: In): Promise<void> {
    if (m.type === 'ready') {
      this.ready = true;
      this.watchdog.ready();
      for (const w of this.readyWaiters.splice(0)) w();
      await this.refresh(true);
      this.postProblems();
    } else await this.onMessage(m);
  }

  /** Resolves once the page listens (or after `ms`, or at once when it does already). */
  whenReady(ms = 10_000): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.readyWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** Loads the page again while it is visible and has not said `ready` (a blank webview), then tells the user. */
  private watchLoad(page: PanelPage): LoadWatchdog {
    const { panel, deps } = this;
    return new LoadWatchdog({
      afterMs: LOAD_TIMEOUT_MS,
      tries: LOAD_TRIES,
      visible: () => panel.visible,
      reload: (n) => {
        deps.log(
          `${panel.title}: the page did not say it was ready in ${LOAD_TIMEOUT_MS / 1000} s; loading it again (${n} of ${LOAD_TRIES})`,
        );
        // a fresh nonce makes the html new to the webview, which loads it in a new frame
        panel.webview.html = panelHtml(panel.webview, deps.extensionUri, page, this.state);
      },
      giveUp: () => {
        const reopen = this.site.reopen;
        if (reopen) {
          // a webview whose frame stays blank is not mended by its html alone: a new webview is a new frame
          deps.log(`${panel.title}: the page stayed blank after ${LOAD_TRIES} reload; opening it in a new webview`);
          reopen(this.state, panel.viewColumn);
          panel.dispose();
          return;
        }
        deps.log(`${panel.title}: the page stayed blank in a new webview too`);
        this.background(notLoaded(panel.title), 'cannot offer to reload the window');
      },
    });
  }

  protected post(m: Out): void {
    void this.panel.webview.postMessage(m);
  }

  /** The run's data problems, for the banner at the top of the page. */
  private postProblems(): void {
    const run = this.live()?.run;
    if (run) void this.panel.webview.postMessage(problemsMessage(runProblems(run)));
  }

  protected live(): LiveRun | undefined {
    return this.deps.runs.get(this.state.root);
  }

  protected remember(): void {
    this.site.remember(this.state);
  }

  /** A run changed: push once the burst settles (a growing log changes often). */
  protected schedulePush(): void {
    if (!this.ready || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      this.background(
        this.refresh().then(() => this.postProblems()),
        "cannot show the run's change",
      );
    }, 300);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.site.gone(this);
  }
}
