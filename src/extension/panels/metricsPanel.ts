/** The metrics dashboard: decimated series for the charts' width, pins, and jumps to the trajectories behind a point. */
import type * as vscode from 'vscode';
import type { PanelState } from '../../shared/protocol';
import type { MetricsHostMessage, MetricsWebviewMessage } from '../../shared/protocol/metrics';
import { parseMetricsMessage } from '../../shared/protocol/metrics';
import type { OpenPanel, PanelDeps } from './panelHost';
import { PanelHost } from './panelHost';
import { seriesViews, xRange } from './seriesViews';
import { jumpFor } from './jumpTable';
import { queryView } from './queryViews';

export class MetricsPanel extends PanelHost<MetricsWebviewMessage, MetricsHostMessage> {
  /** the width of one chart, which the series are decimated for */
  private width = 600;

  constructor(panel: vscode.WebviewPanel, state: PanelState, deps: PanelDeps, onDispose: (p: OpenPanel) => void) {
    super(panel, state, deps, parseMetricsMessage, onDispose);
  }

  protected async onMessage(m: MetricsWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'metrics/width': {
        // sent just before ready (also when a hidden panel comes back): it only sets the
        // width the next push decimates for, unless the charts really changed width
        const changed = m.width !== this.width;
        this.width = m.width;
        if (this.ready && changed) await this.push();
        break;
      }
      case 'metrics/pin':
        await this.deps.pins.set(this.root, m.pinned);
        break;
      case 'metrics/openPoint': {
        const j = jumpFor(m.metric, m.iteration);
        await this.deps.navigate.openTrajectories(this.root, queryView(j.spec), j.label);
        break;
      }
      case 'ready': // answered by PanelHost
        break;
    }
  }

  protected async push(): Promise<void> {
    const live = this.live();
    if (!live) {
      this.post({ type: 'error', message: `The run ${this.root} is not open (no log found there).` });
      return;
    }
    const m = live.run.metrics;
    if (!m) {
      this.post({ type: 'error', message: `${live.run.location.name} has no ws_metrics.jsonl.` });
      return;
    }
    const t = m.getTable();
    this.post({
      type: 'metrics/data',
      runName: live.run.location.name,
      series: seriesViews(t, this.width),
      iterations: t.iterations.length,
      xRange: xRange(t),
      pinned: this.deps.pins.get(this.root),
    });
  }
}
