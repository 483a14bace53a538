/** The two tree views (Hub, Local runs) and what reaches into them from outside. */
import * as vscode from 'vscode';
import { HubTreeProvider, RunTreeProvider } from './trees';
import type { HubNode, RunNode } from './treeModel';
import type { HubService } from '../hub/hubService';
import type { RunService } from '../runs/runService';
import { Disposable } from '../dispose';
import type { HubEvalsOf } from './hubEvals';

export class Trees extends Disposable {
  readonly hub: HubTreeProvider;
  readonly runs: RunTreeProvider;
  readonly hubView: vscode.TreeView<HubNode>;
  readonly runView: vscode.TreeView<RunNode>;

  constructor(
    hub: HubService,
    private readonly runService: RunService,
    repos: () => string[],
    destFor: (repo: string, kind: 'resume' | 'hf') => string | undefined,
    evalsOf?: HubEvalsOf,
  ) {
    super();
    this.hub = this._register(new HubTreeProvider(hub, repos, destFor, evalsOf));
    this.runs = this._register(new RunTreeProvider(runService));
    this.hubView = this._register(vscode.window.createTreeView('rlRunBrowser.hub', { treeDataProvider: this.hub, showCollapseAll: true }));
    this.runView = this._register(
      vscode.window.createTreeView('rlRunBrowser.runs', { treeDataProvider: this.runs, showCollapseAll: true, canSelectMany: true }),
    );
  }

  /** Selects one row of a run's credit log (a trajectory) in the Local runs view. */
  async revealRow(root: string, row: number): Promise<void> {
    const idx = this.runService.get(root)?.run.credit;
    if (!idx) return;
    const r = idx.row(row);
    const node = this.runs.trajectoryNode(root, r.iteration, r.group, r.rollout);
    if (node) await this.runView.reveal(node, { select: true, focus: true, expand: true });
  }
}
