/**
 * The task view: one task across training in one run or two, every group of it at each
 * iteration and its success over iterations, from each run's index (no log re-read);
 * it follows every run it shows, so new iterations appear as a log grows.
 */
import type * as vscode from 'vscode';
import { taskHistory } from '../../core/compare/taskHistory';
import type { TaskHostMessage, TaskPanelState, TaskPick, TaskRunView, TaskWebviewMessage } from '../../shared/protocol/task';
import { parseTaskMessage, parseTaskState } from '../../shared/protocol/task';
import type { RunTrajectoryKey } from '../../shared/protocol/task';
import { visibleText } from '../../shared/visibleText';
import type { PanelSite } from '../panels/panelHost';
import type { PanelKindSpec } from '../panels/panelRegistry';
import { PanelHost } from '../panels/panelHost';
import { taskRows } from './taskColumns';
import { missingRunView, taskRunView } from './taskViews';
import { errorMessage } from '../../core/errorMessage';

/** A title-sized piece of log text (bidi controls shown by their code point). */
export function shortText(s: string, n = 40): string {
  const v = visibleText(s).replace(/\s+/g, ' ');
  return v.length > n ? `${v.slice(0, n - 1)}…` : v;
}

const TASK_VIEW_TYPE = 'rlRunBrowser.task';

export class TaskPanel extends PanelHost<TaskWebviewMessage, TaskHostMessage, TaskPanelState> {
  /** the task's instruction, read once from its first trajectory (null: none, or the task id again), with the task it is of */
  private instruction: { task: string; text: string | null } | undefined;

  constructor(panel: vscode.WebviewPanel, state: TaskPanelState, site: PanelSite<TaskPanelState>) {
    super(panel, state, site, parseTaskMessage, { title: 'Task', script: 'task', styles: ['task.css'], codicons: false });
    panel.title = `Task: ${shortText(state.task)}`;
  }

  get task(): string {
    return this.state.task;
  }
  get runs(): readonly string[] {
    return this.state.runs;
  }

  /**
   * Shows `task` of the same runs in this panel, revealed (a jump from the comparison reuses an
   * open task view: a new webview is slow to create, and one more tab the user did not ask for).
   */
  showTask(task: string): void {
    this.state.task = task;
    this.panel.title = `Task: ${shortText(task)}`;
    this.panel.reveal();
    if (this.ready) this.background(this.refresh(), 'cannot show the task');
  }

  protected override shows(root: string | undefined): boolean {
    return root !== undefined && this.state.runs.includes(root);
  }

  protected async onMessage(m: TaskWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'task/open': {
        const root = this.state.runs[m.run];
        if (!root) return;
        const { iteration, group, rollout } = m;
        await this.deps.navigate.openTrajectories(
          root,
          { filter: { iterationMin: iteration, iterationMax: iteration, group }, sort: [{ key: 'rollout' }] },
          null,
          { iteration, group, rollout },
        );
        break;
      }
      case 'task/sideBySide': {
        const left = this.key(m.left);
        const right = this.key(m.right);
        if (left && right) this.deps.navigate.openSideBySide(left, right);
        break;
      }
      case 'ready': // answered by PanelHost
        break;
    }
  }

  private key(p: TaskPick): RunTrajectoryKey | undefined {
    const run = this.state.runs[p.run];
    return run === undefined ? undefined : { run, iteration: p.iteration, group: p.group, rollout: p.rollout };
  }

  protected async push(): Promise<void> {
    const task = this.state.task;
    try {
      const runs = await Promise.all(this.state.runs.map((root) => this.runView(root, task)));
      // another task was shown meanwhile (two task rows clicked in a row): its own push draws it
      if (task !== this.state.task) return;
      const instruction = this.instruction?.task === task ? this.instruction.text : null;
      this.post({ type: 'task/view', view: { task, instruction, runs } });
    } catch (e) {
      if (task === this.state.task) this.post({ type: 'error', message: errorMessage(e) });
    }
  }

  private async runView(root: string, task: string): Promise<TaskRunView> {
    const live = this.deps.runs.get(root);
    const name = live?.run.location.name ?? root.split('/').pop() ?? root;
    if (!live) return missingRunView(root, name, `the run ${root} is not open (no log found there)`);
    const idx = live.run.credit;
    if (!idx) return missingRunView(root, name, 'this run has no credit log');
    const rows = await taskRows(idx);
    const history = taskHistory(rows, task);
    const first = history.groups[0]?.rows[0];
    if (this.instruction?.task !== task && first !== undefined) {
      const text = (await idx.read(first).catch(() => undefined))?.instruction ?? null;
      this.instruction = { task, text: text === task ? null : text };
    }
    return taskRunView(root, name, idx, history);
  }
}

/** One panel per task and runs; its page saves its state (`setState`) and a reload restores it from that alone. */
export const TASK_KIND: PanelKindSpec<TaskPanelState, TaskPanel> = {
  viewType: TASK_VIEW_TYPE,
  title: 'Task',
  key: (s) => JSON.stringify([s.task, s.runs]),
  roots: (s) => s.runs,
  restore: (saved) => parseTaskState(saved),
  create: (panel, state, site) => new TaskPanel(panel, state, site),
};
