/** The run report: the figures of section 4 with their marks, and jumps to the iterations and trajectories behind them. */
import type * as vscode from 'vscode';
import type { PanelState } from '../../shared/protocol';
import type { PanelSite } from '../panels/panelHost';
import type { ReportHostMessage, ReportWebviewMessage } from '../../shared/protocol/report';
import { parseReportMessage } from '../../shared/protocol/report';
import { PanelHost } from '../panels/panelHost';
import { gateGroupPage, reportView } from './reportViews';
import type { FullReport } from '../../core/report/report';
import type { CreditIndex } from '../../core/log/creditIndex';
import { iterationJump } from './jumpTable';
import type { Jump } from './jumpTable';
import { figureJump, gateSideJump } from './reportJumps';
import { runBehaviour } from '../../core/behaviour/behaviourFigures';
import { chooseBaseline, onBaselineChange, readBaseline } from '../runs/baseline';
import { checkpointVerdictView } from './checkpointVerdict';

export class ReportPanel extends PanelHost<ReportWebviewMessage, ReportHostMessage> {
  /** the report the page shows, for the gate groups' further pages */
  private shown: { full: FullReport; index: CreditIndex } | undefined;

  constructor(panel: vscode.WebviewPanel, state: PanelState, site: PanelSite<PanelState>) {
    super(panel, state, site, parseReportMessage);
    this._register(onBaselineChange(() => this.schedulePush()));
  }

  protected async onMessage(m: ReportWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'report/openIteration': {
        const j = iterationJump(m.iteration, m.gate);
        await this.deps.navigate.openTrajectories(this.root, j.spec, j.label);
        break;
      }
      case 'report/openFigure':
        await this.open(figureJump(m.key));
        break;
      case 'report/openGateSide':
        await this.open(gateSideJump(m.iteration, m.group, m.side));
        break;
      case 'report/queryGateGroups':
        if (this.shown) {
          const rows = gateGroupPage(this.shown.full, this.shown.index, m.offset, m.limit);
          this.post({ type: 'report/gateGroups', seq: m.seq, offset: m.offset, rows });
        }
        break;
      case 'report/chooseBaseline':
        await chooseBaseline(this.deps.runs, this.root);
        break;
      case 'openTrajectory':
        await this.deps.navigate.openTrajectories(this.root, undefined, null, {
          iteration: m.iteration,
          group: m.group,
          rollout: m.rollout,
        });
        break;
      case 'ready': // answered by PanelHost
        break;
    }
  }

  private async open(j: Jump | undefined): Promise<void> {
    if (j) await this.deps.navigate.openTrajectories(this.root, j.spec, j.label);
  }

  protected async push(): Promise<void> {
    const live = this.live();
    if (!live) {
      this.post({ type: 'error', message: `The run ${this.root} is not open (no log found there).` });
      return;
    }
    const full = live.run.report();
    if (!full || !live.run.credit) {
      this.post({ type: 'error', message: `${live.run.location.name} has no credit log.` });
      return;
    }
    const behaviour = await runBehaviour(live.run);
    // an evaluation log read in place on the Hub is fetched only when asked for
    if (live.run.location.remote?.evals && live.run.evals?.version === 0) await live.run.updateEvals().catch(() => undefined);
    const verdict = checkpointVerdictView(live.run.evals?.episodes, await readBaseline(this.deps.runs, live.run.location.root));
    const view = reportView(live.run.location.name, full, live.run.credit.schemaCheck(), live.run.credit, behaviour, verdict);
    this.shown = { full, index: live.run.credit };
    this.post({ type: 'report/data', report: view });
  }
}
