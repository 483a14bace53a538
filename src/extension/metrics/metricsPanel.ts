/** The metrics dashboard: decimated series for the charts' width, pins, overlaid runs, and jumps to the trajectories behind a point. */
import * as vscode from 'vscode';
import type { MetricsHostMessage, MetricsPanelState, MetricsWebviewMessage, OverlayEntry } from '../../shared/protocol/metrics';
import { parseMetricsMessage } from '../../shared/protocol/metrics';
import { buildLink, LinkError } from '../../core/links/link';
import type { PanelSite, PinStore } from '../panels/panelHost';
import { PanelHost } from '../panels/panelHost';
import { seriesViews, xRange } from './seriesViews';
import { chartSelection } from './chartCap';
import { jumpFor } from '../report/jumpTable';
import { addRuns, parseOverlay, removeRun, room } from '../overlay/overlayState';
import { overlayViews } from '../overlay/overlayViews';
import type { OverlayRun } from '../overlay/overlayViews';
import { pickOverlayRuns } from '../overlay/pickOverlay';
import { escapeNotification as esc } from '../text';
import { runRefOf } from '../share/runOrigin';

export class MetricsPanel extends PanelHost<MetricsWebviewMessage, MetricsHostMessage, MetricsPanelState> {
  /** the width of one chart, which the series are decimated for */
  private width = 600;
  /** the runs overlaid on this one, each with its colour */
  private overlay: OverlayEntry[];
  private overlayTimer: NodeJS.Timeout | undefined;
  /** the metric a link named: the page scrolls to it once it has its charts */
  private pendingFocus: string | undefined;
  /** metrics a link named: charted even past the cap, like pinned ones */
  private readonly linked = new Set<string>();
  /** the metrics the last push charted */
  private charted = new Set<string>();

  constructor(
    panel: vscode.WebviewPanel,
    state: MetricsPanelState,
    site: PanelSite<MetricsPanelState>,
    private readonly pins: PinStore,
  ) {
    super(panel, state, site, parseMetricsMessage);
    this.overlay = parseOverlay(state.overlay, state.root);
    this._register(
      site.deps.runs.onDidChange((e) => {
        if (e.root !== undefined && this.overlay.some((o) => o.root === e.root)) this.scheduleOverlayPush();
      }),
    );
    this._register({ dispose: () => clearTimeout(this.overlayTimer) });
  }

  /** Scrolls the page to `metric`'s chart and highlights it (a metric the run holds: the link's caller checked it). */
  focusMetric(metric: string): void {
    this.pendingFocus = metric;
    this.linked.add(metric);
    if (!this.ready) return;
    if (this.charted.has(metric)) this.flushFocus();
    else void this.push();
  }

  private flushFocus(): void {
    if (this.pendingFocus === undefined) return;
    super.post({ type: 'metrics/focus', metric: this.pendingFocus });
    this.pendingFocus = undefined;
  }

  /** The focus a link asked for goes right after the charts' data. */
  protected override post(m: MetricsHostMessage): void {
    super.post(m);
    if (m.type === 'metrics/data') this.flushFocus();
  }

  /** Asks which local runs to overlay (several with `many`) and shows them. */
  async pickOverlay(many: boolean): Promise<void> {
    if (room(this.overlay) <= 0) {
      void vscode.window.showInformationMessage(`A dashboard overlays at most ${this.overlay.length} runs: remove one first.`);
      return;
    }
    const roots = await pickOverlayRuns(this.deps.runs, [this.root, ...this.overlay.map((o) => o.root)], many);
    if (roots.length === 0) return;
    const next = addRuns(this.overlay, roots, this.root);
    if (next.length < this.overlay.length + roots.length)
      void vscode.window.showInformationMessage(
        `Only ${next.length - this.overlay.length} of the ${roots.length} runs fit on the dashboard.`,
      );
    await this.setOverlay(next);
  }

  private async setOverlay(next: OverlayEntry[]): Promise<void> {
    this.overlay = next;
    this.state.overlay = next;
    this.remember();
    await this.push();
  }

  /** A run on this dashboard (the primary or an overlaid one), else undefined: a page's message names only those. */
  private known(run: string | undefined): string | undefined {
    if (run === undefined || run === this.root) return this.root;
    return this.overlay.some((o) => o.root === run) ? run : undefined;
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
        await this.pins.set(this.root, m.pinned);
        break;
      case 'metrics/openPoint': {
        const root = this.known(m.run);
        if (!root) return;
        const j = jumpFor(m.metric, m.iteration);
        await this.deps.navigate.openTrajectories(root, j.spec, j.label);
        break;
      }
      case 'metrics/addRun':
        await this.pickOverlay(false);
        break;
      case 'metrics/removeRun':
        await this.setOverlay(removeRun(this.overlay, m.run));
        break;
      case 'metrics/copyLink':
        await this.copyLink(m.run, m.metric);
        break;
      case 'ready': // answered by PanelHost
        break;
    }
  }

  private async copyLink(run: string, metric: string): Promise<void> {
    const root = this.known(run);
    if (!root) return;
    try {
      await vscode.env.clipboard.writeText(buildLink({ run: runRefOf(root), view: { kind: 'metric', metric } }));
      vscode.window.setStatusBarMessage(`Copied a link to ${esc(metric)}`, 4000);
    } catch (e) {
      if (!(e instanceof LinkError)) throw e;
      void vscode.window.showWarningMessage(`No link to ${esc(metric)}: ${esc(e.message)}`);
    }
  }

  /** An overlaid run's log grew: push once the burst settles, like the primary run's. */
  private scheduleOverlayPush(): void {
    if (!this.ready || this.overlayTimer) return;
    this.overlayTimer = setTimeout(() => {
      this.overlayTimer = undefined;
      void this.push();
    }, 300);
  }

  /** Each overlaid run's table, loading a run the window has not opened yet (a restored dashboard). */
  private async overlayRuns(): Promise<OverlayRun[]> {
    const out: OverlayRun[] = [];
    for (const o of this.overlay) {
      const live = await this.deps.runs.ensure(o.root);
      const name = live?.run.location.name ?? o.root.split(/[\\/]/).pop() ?? o.root;
      const m = live?.run.metrics;
      const problem = !live ? 'not found (no log there)' : !m ? 'has no ws_metrics.jsonl' : undefined;
      out.push({ root: o.root, name, color: o.color, table: m?.getTable(), ...(problem ? { problem } : {}) });
    }
    return out;
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
    const pinned = this.pins.get(this.root);
    const keep = [...pinned, ...this.linked];
    const base = { type: 'metrics/data', runName: live.run.location.name, iterations: t.iterations.length, pinned } as const;
    if (this.overlay.length === 0) {
      const pick = chartSelection(t.names, keep);
      this.charted = new Set(pick.names);
      this.post({ ...base, series: seriesViews(t, this.width, pick.names), xRange: xRange(t), overlay: [], more: pick.more });
      return;
    }
    const primary: OverlayRun = { root: this.root, name: live.run.location.name, color: 0, table: t };
    const v = overlayViews([primary, ...(await this.overlayRuns())], this.width, keep);
    this.charted = new Set(v.series.map((s) => s.name));
    this.post({ ...base, series: v.series, xRange: v.xRange, runs: v.runs, overlay: this.overlay, more: v.more });
  }
}
