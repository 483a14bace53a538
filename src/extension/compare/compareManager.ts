/** Opens, finds and restores comparison panels: one per ordered pair of runs; the WebviewPanelSerializer of `rlRunBrowser.compare`. */
import * as vscode from 'vscode';
import type { CompareState } from '../../shared/protocol/compare';
import { parseCompareState } from '../../shared/protocol/compare';
import type { Services } from '../services';
import type { PanelDeps } from '../panels/panelHost';
import { webviewOptions } from '../panels/panelHost';
import { COMPARE_VIEW_TYPE, ComparePanel } from './comparePanel';

const STATE_KEY = 'panel:compare';

export class CompareManager implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly panels = new Set<ComparePanel>();
  private readonly deps: PanelDeps;

  constructor(
    private readonly memento: vscode.Memento,
    extensionUri: vscode.Uri,
    s: Services,
  ) {
    this.deps = {
      extensionUri,
      runs: s.runs,
      // the panel pins no metric; its last state is remembered for a reload that lost the page's own
      pins: { get: () => [], set: async () => undefined },
      states: { remember: (st) => void memento.update(STATE_KEY, st), recall: () => undefined },
      navigate: {
        open: (kind, root) => s.panels.open(kind, root),
        openTrajectories: (root, query, label, select) => s.panels.openTrajectories(root, query, label, select),
        revealRow: (root, row) => s.trees.revealRow(root, row),
      },
    };
  }

  find(rootA: string, rootB: string): ComparePanel | undefined {
    return [...this.panels].find((p) => p.pair[0] === rootA && p.pair[1] === rootB);
  }

  get open(): readonly ComparePanel[] {
    return [...this.panels];
  }

  show(rootA: string, rootB: string): ComparePanel {
    const existing = this.find(rootA, rootB);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, 'Compare runs', vscode.ViewColumn.Active, {
      ...webviewOptions(this.deps.extensionUri),
      retainContextWhenHidden: true,
    });
    return this.adopt(panel, { kind: 'compare', rootA, rootB, root: rootA });
  }

  private adopt(panel: vscode.WebviewPanel, state: CompareState): ComparePanel {
    const p = new ComparePanel(panel, state, this.deps, (gone) => this.panels.delete(gone as ComparePanel));
    this.panels.add(p);
    return p;
  }

  /** After a window reload: the page's own state, else the last one the host remembered. */
  deserializeWebviewPanel(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const state = parseCompareState(saved) ?? parseCompareState(this.memento.get(STATE_KEY));
    if (!state) {
      panel.dispose();
      return Promise.resolve();
    }
    this.adopt(panel, state);
    return Promise.resolve();
  }

  dispose(): void {
    for (const p of [...this.panels]) p.panel.dispose();
  }
}
