/**
 * What every panel shares: one class that owns its WebviewPanel, its html, the checked
 * message pump, its disposables, posting, and the state it remembers. A kind of panel
 * (metrics, trajectories, report) extends it with its own protocol and its own push.
 */
import * as vscode from 'vscode';
import type { PanelKind, PanelState, QueryView, TrajectoryKey } from '../../shared/protocol';
import type { LiveRun, RunService } from '../runs';
import { buildHtml } from './html';
import { parseShowProblems, rawMessage } from '../../shared/protocol';
import { problemsMessage, runProblems } from '../problems/dataProblems';

export const TITLES: Readonly<Record<PanelKind, string>> = { metrics: 'Metrics', trajectories: 'Trajectories', report: 'Run report' };

/** Pinned metrics of a run, remembered per workspace. */
export interface PinStore {
  get(root: string): string[];
  set(root: string, pinned: string[]): Promise<void>;
}

/** The last navigation state of each kind of panel, for the serializer. */
export interface PanelStateStore {
  remember(state: PanelState): void;
  recall(kind: PanelKind): PanelState | undefined;
}

/** How a panel opens another panel, or a row in the tree. */
export interface PanelNavigator {
  open(kind: PanelKind, root: string): Promise<unknown>;
  openTrajectories(root: string, query: QueryView | undefined, label: string | null, select?: TrajectoryKey): Promise<void>;
  revealRow(root: string, row: number): Promise<void>;
}

/** Everything a panel needs from outside itself. */
export interface PanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly runs: RunService;
  readonly pins: PinStore;
  readonly states: PanelStateStore;
  readonly navigate: PanelNavigator;
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

function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, state: PanelState): string {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  return buildHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, `${state.kind}.js`)).toString(),
    // codicons only where the page shows them (the dashboard's pins, the browser's turn marks)
    styleUris: [
      ...(state.kind !== 'report' ? [webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.css')).toString()] : []),
      webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview.css')).toString(),
      ...(PANEL_CSS[state.kind]
        ? [webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', PANEL_CSS[state.kind]!)).toString()]
        : []),
    ],
    title: TITLES[state.kind],
    initialState: state,
  });
}

/** A panel as its manager sees it. */
export interface OpenPanel extends vscode.Disposable {
  readonly kind: PanelKind;
  readonly root: string;
  readonly panel: vscode.WebviewPanel;
}

/**
 * The base of every panel. `In` is what its webview may send (checked by `parse` on
 * arrival, anything else dropped), `Out` what the host sends it.
 */
export abstract class PanelHost<In extends { type: string }, Out extends { type: string }> implements OpenPanel {
  protected readonly disposables: vscode.Disposable[] = [];
  /** the page listens (it sent `ready`) */
  protected ready = false;
  private pushTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    protected readonly state: PanelState,
    protected readonly deps: PanelDeps,
    parse: (v: unknown) => In | undefined,
    private readonly onDispose: (p: OpenPanel) => void,
  ) {
    const live = deps.runs.get(state.root);
    panel.title = `${TITLES[state.kind]}: ${live?.run.location.name ?? state.root.split('/').pop()}`;
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'icon.svg');
    panel.webview.options = webviewOptions(deps.extensionUri);
    panel.webview.html = panelHtml(panel.webview, deps.extensionUri, state);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => {
        const raw = rawMessage(m);
        if (raw && parseShowProblems(raw)) return void vscode.commands.executeCommand('workbench.actions.view.problems');
        const msg = parse(m);
        if (msg) void this.receive(msg);
      }),
      deps.runs.onDidChange((e) => {
        if (e.root === state.root || e.kind === 'list') this.schedulePush();
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  get kind(): PanelKind {
    return this.state.kind;
  }
  get root(): string {
    return this.state.root;
  }

  /** This panel's kind of message, after its check. */
  protected abstract onMessage(m: In): Promise<void>;
  /** Sends the page everything it shows; `initial` after `ready` or a navigation. */
  protected abstract push(initial: boolean): Promise<void>;

  private async receive(m: In): Promise<void> {
    if (m.type === 'ready') {
      this.ready = true;
      await this.push(true);
      this.postProblems();
    } else await this.onMessage(m);
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
    this.deps.states.remember(this.state);
  }

  /** A run changed: push once the burst settles (a growing log changes often). */
  private schedulePush(): void {
    if (!this.ready || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      void this.push(false).then(() => this.postProblems());
    }, 300);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.pushTimer) clearTimeout(this.pushTimer);
    for (const d of this.disposables) d.dispose();
    this.onDispose(this);
  }
}
