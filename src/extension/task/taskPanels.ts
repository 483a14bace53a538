/**
 * Opens, finds and restores the task views and the side-by-side views: one per task
 * and runs, one per pair. The WebviewPanelSerializer of `rlRunBrowser.task` and
 * `rlRunBrowser.sideBySide`: each page saves its state (the task and runs, or the
 * pair) with `setState`, and a reload restores the panel from it.
 */
import * as vscode from 'vscode';
import type { RunTrajectoryKey, SideBySideState, TaskPanelState } from '../../shared/protocol/task';
import { parseSideBySideState, parseTaskState } from '../../shared/protocol/task';
import type { Services } from '../services';
import type { OpenPanel, PanelDeps } from '../panels/panelHost';
import { webviewOptions } from '../panels/panelHost';
import { TaskPanel } from './taskPanel';
import { SideBySidePanel } from './sideBySidePanel';

export const TASK_VIEW_TYPE = 'rlRunBrowser.task';
export const SIDE_BY_SIDE_VIEW_TYPE = 'rlRunBrowser.sideBySide';

const sameKey = (a: RunTrajectoryKey, b: RunTrajectoryKey): boolean =>
  a.run === b.run && a.iteration === b.iteration && a.group === b.group && a.rollout === b.rollout;

export class TaskPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly tasks = new Set<TaskPanel>();
  private readonly pairs = new Set<SideBySidePanel>();
  private readonly deps: PanelDeps;

  constructor(
    ctx: vscode.ExtensionContext,
    private readonly s: Services,
  ) {
    this.deps = {
      extensionUri: ctx.extensionUri,
      runs: s.runs,
      // these panels pin no metric and keep their state in their page (setState), not in the workspace
      pins: { get: () => [], set: async () => undefined },
      states: { remember: () => undefined, recall: () => undefined },
      navigate: {
        open: (kind, root) => s.panels.open(kind, root),
        openTrajectories: (root, query, label, select) => s.panels.openTrajectories(root, query, label, select),
        revealRow: (root, row) => s.trees.revealRow(root, row),
      },
    };
  }

  /** The task view of `task` over `runs` (1 or 2 run roots), revealed when it is open already. */
  openTask(task: string, runs: string[]): TaskPanel {
    const open = [...this.tasks].find((p) => p.task === task && p.runs.join('\n') === runs.join('\n'));
    if (open) {
      open.panel.reveal();
      return open;
    }
    return this.adoptTask(this.create(TASK_VIEW_TYPE, 'Task'), { kind: 'task', root: runs[0]!, task, runs });
  }

  openSideBySide(left: RunTrajectoryKey, right: RunTrajectoryKey): SideBySidePanel {
    const open = [...this.pairs].find((p) => sameKey(p.left, left) && sameKey(p.right, right));
    if (open) {
      open.panel.reveal();
      return open;
    }
    return this.adoptPair(this.create(SIDE_BY_SIDE_VIEW_TYPE, 'Side by side'), { kind: 'sideBySide', root: left.run, left, right });
  }

  private create(viewType: string, title: string): vscode.WebviewPanel {
    // kept alive when hidden, like the run panels (see PanelManager)
    return vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, {
      ...webviewOptions(this.deps.extensionUri),
      retainContextWhenHidden: true,
    });
  }

  private adoptTask(panel: vscode.WebviewPanel, state: TaskPanelState): TaskPanel {
    const nav = { sideBySide: async (l: RunTrajectoryKey, r: RunTrajectoryKey): Promise<void> => void this.openSideBySide(l, r) };
    const p = new TaskPanel(panel, state, this.deps, nav, (gone: OpenPanel<'task'>) => this.tasks.delete(gone as TaskPanel));
    this.tasks.add(p);
    return p;
  }

  private adoptPair(panel: vscode.WebviewPanel, state: SideBySideState): SideBySidePanel {
    const p = new SideBySidePanel(panel, state, this.deps, (gone) => this.pairs.delete(gone as SideBySidePanel));
    this.pairs.add(p);
    return p;
  }

  /** Makes sure a run is open before a restored panel asks for it. */
  private async ensureRuns(roots: readonly string[]): Promise<void> {
    for (const r of roots) await this.s.runs.ensure(r);
  }

  /** Restores a panel after a window reload from the state its page saved (checked; anything else closes it). */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    if (panel.viewType === TASK_VIEW_TYPE) {
      const s = parseTaskState(state);
      if (!s) {
        panel.dispose();
        return;
      }
      await this.ensureRuns(s.runs);
      this.adoptTask(panel, s);
    } else if (panel.viewType === SIDE_BY_SIDE_VIEW_TYPE) {
      const s = parseSideBySideState(state);
      if (!s) {
        panel.dispose();
        return;
      }
      await this.ensureRuns([s.left.run, s.right.run]);
      this.adoptPair(panel, s);
    } else panel.dispose();
  }

  dispose(): void {
    for (const p of [...this.tasks, ...this.pairs]) p.panel.dispose();
  }
}
