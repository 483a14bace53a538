/** Two trajectories side by side: turns aligned by index, the first turn where the executed actions differ, each side's detail. */
import type * as vscode from 'vscode';
import type {
  RunTrajectoryKey,
  SideBySideHostMessage,
  SideBySideState,
  SideBySideWebviewMessage,
  SideView,
} from '../../shared/protocol/task';
import { parseSideBySideMessage, parseSideBySideState } from '../../shared/protocol/task';
import type { PanelSite } from '../panels/panelHost';
import type { PanelKindSpec } from '../panels/panelRegistry';
import { PanelHost } from '../panels/panelHost';
import { sideBySideView, sideView } from './taskViews';
import { errorMessage } from '../../core/errorMessage';

const SIDE_BY_SIDE_VIEW_TYPE = 'rlRunBrowser.sideBySide';

const keyText = (k: RunTrajectoryKey): string => `${k.iteration}/${k.group}/${k.rollout}`;

export class SideBySidePanel extends PanelHost<SideBySideWebviewMessage, SideBySideHostMessage, SideBySideState> {
  constructor(panel: vscode.WebviewPanel, state: SideBySideState, site: PanelSite<SideBySideState>) {
    super(panel, state, site, parseSideBySideMessage, {
      title: 'Side by side',
      script: 'sideBySide',
      styles: ['trajectories.css', 'task.css'],
      codicons: true,
    });
    panel.title = `Side by side: ${keyText(state.left)} | ${keyText(state.right)}`;
  }

  get left(): RunTrajectoryKey {
    return this.state.left;
  }
  get right(): RunTrajectoryKey {
    return this.state.right;
  }

  protected override shows(root: string | undefined): boolean {
    return root === this.state.left.run || root === this.state.right.run;
  }

  protected async onMessage(m: SideBySideWebviewMessage): Promise<void> {
    if (m.type !== 'sideBySide/open') return;
    const k = m.side === 'left' ? this.state.left : this.state.right;
    await this.deps.navigate.openTrajectories(
      k.run,
      { filter: { iterationMin: k.iteration, iterationMax: k.iteration, group: k.group }, sort: [{ key: 'rollout' }] },
      null,
      { iteration: k.iteration, group: k.group, rollout: k.rollout },
    );
  }

  protected async push(): Promise<void> {
    const [l, r] = await Promise.all([this.side(this.state.left), this.side(this.state.right)]);
    const match = this.deps.runs.get(this.state.left.run)?.run.credit?.options.match;
    this.post({ type: 'sideBySide/view', view: sideBySideView(l, r, match) });
  }

  /** One side's view, or why it cannot be shown. */
  private async side(k: RunTrajectoryKey): Promise<SideView | string> {
    const live = this.deps.runs.get(k.run);
    if (!live) return `the run ${k.run} is not open (no log found there)`;
    const idx = live.run.credit;
    if (!idx) return `${k.run}: no credit log`;
    const row = idx.find(k.iteration, k.group, k.rollout);
    if (row < 0) return `${live.run.location.name}: no trajectory with iteration ${k.iteration}, group ${k.group}, rollout ${k.rollout}`;
    try {
      return sideView(k.run, live.run.location.name, idx, row, await idx.read(row));
    } catch (e) {
      return errorMessage(e);
    }
  }
}

const keyParts = (k: RunTrajectoryKey): unknown[] => [k.run, k.iteration, k.group, k.rollout];

/** One panel per pair of trajectories; restored from its page's state alone. */
export const SIDE_BY_SIDE_KIND: PanelKindSpec<SideBySideState, SideBySidePanel> = {
  viewType: SIDE_BY_SIDE_VIEW_TYPE,
  title: 'Side by side',
  key: (s) => JSON.stringify([keyParts(s.left), keyParts(s.right)]),
  roots: (s) => [s.left.run, s.right.run],
  restore: (saved) => parseSideBySideState(saved),
  create: (panel, state, site) => new SideBySidePanel(panel, state, site),
};
