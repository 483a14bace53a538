/**
 * Opens, finds and restores the panels: one per kind and run. Registered as the
 * WebviewPanelSerializer of each panel's viewType (`rlRunBrowser.<kind>`).
 */
import * as vscode from 'vscode';
import type { PanelKind, PanelState, QueryView, TrajectoryKey } from '../../shared/protocol';
import type { RunService } from '../runs';
import type { OpenPanel, PanelDeps, PanelStateStore, PinStore } from './panelHost';
import { TITLES, webviewOptions } from './panelHost';
import { MetricsPanel } from './metricsPanel';
import { TrajectoriesPanel } from './trajectoriesPanel';
import { ReportPanel } from './reportPanel';

type PanelClass = new (panel: vscode.WebviewPanel, state: PanelState, deps: PanelDeps, onDispose: (p: OpenPanel) => void) => OpenPanel;

const PANEL_CLASS: Readonly<Record<PanelKind, PanelClass>> = {
  metrics: MetricsPanel,
  trajectories: TrajectoriesPanel,
  report: ReportPanel,
};

const KINDS = Object.keys(PANEL_CLASS) as PanelKind[];

/** Pins and panel states, remembered per workspace. */
class WorkspaceStores implements PinStore, PanelStateStore {
  constructor(private readonly memento: vscode.Memento) {}

  get(root: string): string[] {
    return this.memento.get<string[]>(`pins:${root}`, []);
  }
  async set(root: string, pinned: string[]): Promise<void> {
    await this.memento.update(`pins:${root}`, pinned);
  }
  remember(state: PanelState): void {
    void this.memento.update(`panel:${state.kind}`, state);
  }
  recall(kind: PanelKind): PanelState | undefined {
    return this.memento.get<PanelState>(`panel:${kind}`);
  }
}

export class PanelManager implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly panels = new Set<OpenPanel>();
  private readonly stores: WorkspaceStores;
  private readonly deps: PanelDeps;

  constructor(
    ctx: vscode.ExtensionContext,
    private readonly runs: RunService,
    revealRow: (root: string, row: number) => Promise<void>,
  ) {
    this.stores = new WorkspaceStores(ctx.workspaceState);
    this.deps = {
      extensionUri: ctx.extensionUri,
      runs,
      pins: this.stores,
      states: this.stores,
      navigate: {
        open: (kind, root) => this.open(kind, root),
        openTrajectories: (root, query, label, select) => this.openTrajectories(root, query, label, select),
        revealRow,
      },
    };
  }

  find(kind: PanelKind, root: string): OpenPanel | undefined {
    return [...this.panels].find((p) => p.kind === kind && p.root === root);
  }

  async open(kind: PanelKind, root: string): Promise<OpenPanel> {
    const existing = this.find(kind, root);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    return this.create({ kind, root });
  }

  async openTrajectories(root: string, query: QueryView | undefined, label: string | null, select?: TrajectoryKey): Promise<void> {
    const existing = this.find('trajectories', root);
    if (existing instanceof TrajectoriesPanel) {
      existing.navigate(query, label, select);
      return;
    }
    this.create({ kind: 'trajectories', root, ...(query ? { query } : {}), label, ...(select ? { selected: select } : {}) });
  }

  private create(state: PanelState): OpenPanel {
    const panel = vscode.window.createWebviewPanel(
      `rlRunBrowser.${state.kind}`,
      TITLES[state.kind],
      vscode.ViewColumn.Active,
      // Kept alive when hidden: in the workbench, creating a webview again costs about
      // 1.5 s (bench workbench: tab switch back 1586 ms as shipped, 71 ms retained) and
      // the retained page measured no more memory (757 MB against 772 MB, all Chromium
      // processes); the data stays in the host either way.
      { ...webviewOptions(this.deps.extensionUri), retainContextWhenHidden: true },
    );
    this.stores.remember(state);
    return this.adopt(panel, state);
  }

  private adopt(panel: vscode.WebviewPanel, state: PanelState): OpenPanel {
    const p = new PANEL_CLASS[state.kind](panel, state, this.deps, (gone) => this.panels.delete(gone));
    this.panels.add(p);
    return p;
  }

  /** Restores a panel after a window reload, with the same options and its saved state. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const kind = KINDS.find((k) => panel.viewType === `rlRunBrowser.${k}`);
    const s = kind && restoredState(kind, state, this.stores.recall(kind));
    if (!s) {
      panel.dispose();
      return;
    }
    await this.runs.ensure(s.root);
    this.adopt(panel, s);
  }

  dispose(): void {
    for (const p of [...this.panels]) p.panel.dispose();
  }
}

/** The webview's own state, else what the host remembered (the webview may not have saved it before the reload). */
function restoredState(kind: PanelKind, saved: unknown, remembered: PanelState | undefined): PanelState | undefined {
  const valid = (x: unknown): x is PanelState => !!x && typeof (x as PanelState).root === 'string' && (x as PanelState).kind === kind;
  if (valid(saved))
    return {
      ...remembered,
      ...saved,
      ...(kind === 'trajectories' && remembered?.root === saved.root && remembered.selected ? { selected: remembered.selected } : {}),
    };
  return valid(remembered) ? remembered : undefined;
}
