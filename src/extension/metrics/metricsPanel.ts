/** The metrics dashboard: decimated series for the charts' width, pins, overlaid runs, and jumps to the trajectories behind a point. */
import { behaviourJump, behaviourTable } from './behaviourSeries';
import type { Run } from '../../core/run/run';
import { runBehaviour } from '../../core/behaviour/behaviourFigures';
import type { SeriesView } from '../../shared/protocol/metrics';
import type { MetricsTable } from '../../core/log/metricsIndex';
import * as vscode from 'vscode';
import type { MetricsHostMessage, MetricsPanelState, MetricsWebviewMessage, OverlayEntry } from '../../shared/protocol/metrics';
import { parseMetricsMessage } from '../../shared/protocol/metrics';
import { LinkError } from '../../core/links/link';
import type { PanelSite, PinStore } from '../panels/panelHost';
import { PanelHost } from '../panels/panelHost';
import { seriesViews, xRange } from './seriesViews';
import { withVerdict } from './verdictViews';
import { chartSelection } from './chartCap';
import { jumpFor, pointDirection } from '../report/jumpTable';
import { addRuns, parseOverlay, removeRun, room } from '../overlay/overlayState';
import { overlayViews } from '../overlay/overlayViews';
import type { OverlayRun } from '../overlay/overlayViews';
import { pickOverlayRuns } from '../overlay/pickOverlay';
import { escapeNotification as esc } from '../text';
import { runLink, runRefOf } from '../share/runOrigin';
import { evalSeries, isEvalSeries } from './evalSeries';
import type { EvalRun } from './evalSeries';
import { checkpointOffer } from './checkpointOffer';
import { errorMessage } from '../../core/errorMessage';

/** The Behaviour group's table of a run, from its kept section-7 figures; undefined without a credit log. */
async function runBehaviourTable(run: Run): Promise<MetricsTable | undefined> {
  const f = await runBehaviour(run);
  return run.credit && f ? behaviourTable(run.credit, f.report) : undefined;
}

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
  /** runs read in place whose evaluation log this dashboard asked for (it is fetched only when asked) */
  private readonly evalsAsked = new Set<string>();

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
    else this.background(this.refresh(), `cannot show ${metric}`);
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
    await this.addOverlay(roots);
  }

  /** Overlays these runs (those not on it yet), as far as the dashboard has room. */
  async addOverlay(picked: readonly string[]): Promise<void> {
    const roots = picked.filter((r) => r !== this.root && !this.overlay.some((o) => o.root === r));
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
    this.state.overlayAt = Date.now();
    this.remember();
    await this.refresh();
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
        if (this.ready && changed) await this.refresh();
        break;
      }
      case 'metrics/pin':
        await this.pins.set(this.root, m.pinned);
        break;
      case 'metrics/openPoint': {
        const root = this.known(m.run);
        if (!root) return;
        if (isEvalSeries(m.metric)) return this.offerCheckpoint(root, m.iteration);
        const j = behaviourJump(m.metric, m.iteration) ?? jumpFor(m.metric, m.iteration, await this.direction(root, m.metric, m.iteration));
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

  /** Whether a clicked point is a spike up or down against its neighbours in its run's metrics log. */
  private async direction(root: string, metric: string, iteration: number): Promise<'up' | 'down' | undefined> {
    const t = (await this.deps.runs.ensure(root))?.run.metrics?.getTable();
    const values = t?.values(metric);
    return t && values ? pointDirection(t.iterations, values, iteration) : undefined;
  }

  private async offerCheckpoint(root: string, iteration: number): Promise<void> {
    const name = this.deps.runs.get(root)?.run.location.name ?? root;
    const offer = checkpointOffer(runRefOf(root), name, iteration);
    const downloads = offer.kind === 'download' ? offer.choices : [];
    const pick = await vscode.window.showInformationMessage(esc(offer.message), offer.episodes.label, ...downloads.map((c) => c.label));
    if (pick === offer.episodes.label) {
      const query = { filter: { evalIteration: offer.episodes.iteration }, sort: [] };
      await this.deps.navigate.openTrajectories(root, query, `eval episodes of iteration ${offer.episodes.iteration}`);
      return;
    }
    const choice = downloads.find((c) => c.label === pick);
    if (choice) await vscode.commands.executeCommand(choice.command, choice.node);
  }

  /**
   * Each run's eval episodes (the primary first), reading a Hub log read in place when asked
   * (`updateEvals`: once, then as the run follows the repo); a read that fails is one notice and no line.
   */
  private async evalRuns(): Promise<EvalRun[]> {
    const out: EvalRun[] = [];
    for (const root of [this.root, ...this.overlay.map((o) => o.root)]) {
      const run = (await this.deps.runs.ensure(root))?.run;
      if (run?.location.remote?.evals && !this.evalsAsked.has(root)) {
        this.evalsAsked.add(root);
        try {
          await run.updateEvals();
        } catch (e) {
          void vscode.window.showWarningMessage(`${esc(run.location.name)}: its evaluation log could not be read: ${esc(errorMessage(e))}`);
        }
      }
      const evals = run?.evals;
      out.push({ root, episodes: evals?.episodes, ...(evals ? { version: evals.version } : {}) });
    }
    return out;
  }

  private async copyLink(run: string, metric: string): Promise<void> {
    const root = this.known(run);
    if (!root) return;
    try {
      await vscode.env.clipboard.writeText(runLink(root, { kind: 'metric', metric }, vscode.env.uriScheme));
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
      this.background(this.refresh(), 'cannot show the overlaid run');
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

  /** The Behaviour group with overlaid runs: each run's tag rates from its own index, overlaid like its metrics. */
  private async behaviourOverlay(primary: OverlayRun, others: readonly OverlayRun[], run: Run): Promise<SeriesView[]> {
    const runs: OverlayRun[] = [{ ...primary, table: await runBehaviourTable(run) }];
    for (const o of others) {
      const r = (await this.deps.runs.ensure(o.root))?.run;
      runs.push({ ...o, table: r ? await runBehaviourTable(r) : undefined });
    }
    return overlayViews(runs, this.width, [], Number.MAX_SAFE_INTEGER).series;
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
      const table = await runBehaviourTable(live.run);
      const behaviour = table ? seriesViews(table, this.width) : [];
      const series = withVerdict(seriesViews(t, this.width, pick.names), live.run.report(), t, this.width);
      const evals = evalSeries(await this.evalRuns(), false);
      this.post({
        ...base,
        series: [...evals, ...series, ...behaviour],
        xRange: xRange(t),
        overlay: [],
        overlayAt: this.state.overlayAt ?? 0,
        more: pick.more,
      });
      return;
    }
    const primary: OverlayRun = { root: this.root, name: live.run.location.name, color: 0, table: t };
    const others = await this.overlayRuns();
    const v = overlayViews([primary, ...others], this.width, keep);
    const behaviour = await this.behaviourOverlay(primary, others, live.run);
    this.charted = new Set(v.series.map((s) => s.name));
    const series = withVerdict(v.series, live.run.report(), t, this.width);
    const evals = evalSeries(await this.evalRuns(), true);
    this.post({
      ...base,
      series: [...evals, ...series, ...behaviour],
      xRange: v.xRange,
      runs: v.runs,
      overlay: this.overlay,
      overlayAt: this.state.overlayAt ?? 0,
      more: v.more,
    });
  }
}
