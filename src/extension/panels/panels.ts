/**
 * The three webview panels on one typed protocol. Large data stays here: the webviews
 * ask for pages and get decimated series and one trajectory at a time.
 */
import * as vscode from 'vscode';
import type { PanelKind, PanelState, QueryView } from '../../shared/protocol';
import type { MetricsHostMessage, MetricsWebviewMessage } from '../../shared/protocol/metrics';
import { parseMetricsMessage } from '../../shared/protocol/metrics';
import type { TrajectoriesHostMessage, TrajectoriesWebviewMessage } from '../../shared/protocol/trajectories';
import { parseTrajectoriesMessage } from '../../shared/protocol/trajectories';
import type { ReportHostMessage, ReportWebviewMessage } from '../../shared/protocol/report';
import { parseReportMessage } from '../../shared/protocol/report';
import { buildHtml } from './html';
import type { RunService, LiveRun } from '../runs';
import { queryRows, page, textSearch } from '../../core/run/query';
import { rowView, seriesViews, detailView, reportView } from './views';
import { iterationJump, jumpFor } from './jumpTable';
import { querySpec, queryView } from './queryViews';

type HostMessage = MetricsHostMessage | TrajectoriesHostMessage | ReportHostMessage;
type WebviewMessage = MetricsWebviewMessage | TrajectoriesWebviewMessage | ReportWebviewMessage;
/** Each kind of panel accepts only its own messages. */
const PARSE: Record<PanelKind, (v: unknown) => WebviewMessage | undefined> = {
  metrics: parseMetricsMessage,
  trajectories: parseTrajectoriesMessage,
  report: parseReportMessage,
};

const TITLES: Record<PanelKind, string> = { metrics: 'Metrics', trajectories: 'Trajectories', report: 'Run report' };

export class Panel implements vscode.Disposable {
  private readonly subs: vscode.Disposable[] = [];
  private state: PanelState;
  private ready = false;
  private width = 600;
  private textCache: { text: string; size: number; rows: Set<number> } | undefined;
  private lastQuery: { q: QueryView; offset: number; limit: number } | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    state: PanelState,
    private readonly mgr: PanelManager,
  ) {
    this.state = state;
    const live = mgr.runs.get(state.root);
    panel.title = `${TITLES[state.kind]}: ${live?.run.location.name ?? state.root.split('/').pop()}`;
    panel.iconPath = vscode.Uri.joinPath(mgr.extensionUri, 'media', 'icon.svg');
    panel.webview.options = mgr.webviewOptions();
    panel.webview.html = mgr.html(panel.webview, state);
    this.subs.push(
      panel.webview.onDidReceiveMessage((m: unknown) => {
        const msg = PARSE[state.kind](m);
        if (msg) void this.onMessage(msg);
      }),
    );
    this.subs.push(
      mgr.runs.onDidChange((e) => {
        if (e.root === state.root || e.kind === 'list') this.schedulePush();
      }),
    );
    this.subs.push(panel.onDidDispose(() => this.dispose()));
  }

  get kind(): PanelKind {
    return this.state.kind;
  }
  get root(): string {
    return this.state.root;
  }

  private live(): LiveRun | undefined {
    return this.mgr.runs.get(this.state.root);
  }

  private post(m: HostMessage): void {
    void this.panel.webview.postMessage(m);
  }

  /** Shows the browser at a query and, optionally, a trajectory. */
  navigate(query: QueryView | undefined, label: string | null, select?: { iteration: number; group: number; rollout: number }): void {
    if (query) this.state.query = query;
    this.state.label = label;
    if (select) this.state.selected = select;
    this.mgr.remember(this.state);
    this.panel.reveal(undefined, false);
    if (this.ready) void this.pushAll(true);
  }

  private pushTimer: NodeJS.Timeout | undefined;
  private schedulePush(): void {
    if (!this.ready || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      void this.pushAll(false);
    }, 300);
  }

  private async onMessage(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        await this.pushAll(true);
        break;
      case 'metrics/width': {
        // sent just before ready (also when a hidden panel comes back): it only sets the
        // width the next push decimates for, unless the charts really changed width
        const changed = m.width !== this.width;
        this.width = m.width;
        if (this.ready && changed) await this.pushAll(false);
        break;
      }
      case 'metrics/pin':
        await this.mgr.setPins(this.state.root, m.pinned);
        break;
      case 'metrics/openPoint': {
        const j = jumpFor(m.metric, m.iteration);
        await this.mgr.openTrajectories(this.state.root, queryView(j.spec), j.label);
        break;
      }
      case 'trajectories/query':
        this.state.query = m.query;
        this.mgr.remember(this.state);
        await this.sendPage(m.query, m.offset, m.limit);
        break;
      case 'trajectories/open':
        await this.sendDetail(m.row);
        break;
      case 'trajectories/reveal':
        await this.mgr.revealRow(this.state.root, m.row);
        break;
      case 'report/openIteration': {
        const j = iterationJump(m.iteration, m.gate);
        await this.mgr.openTrajectories(this.state.root, queryView(j.spec), j.label);
        break;
      }
      case 'openTrajectory':
        await this.mgr.openTrajectories(this.state.root, undefined, null, { iteration: m.iteration, group: m.group, rollout: m.rollout });
        break;
      case 'openMetrics':
        await this.mgr.open('metrics', this.state.root);
        break;
    }
  }

  private async pushAll(initial: boolean): Promise<void> {
    const live = this.live();
    if (!live) {
      this.post({ type: 'error', message: `The run ${this.state.root} is not open (no log found there).` });
      return;
    }
    if (this.state.kind === 'metrics') {
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
        pinned: this.mgr.pins(this.state.root),
      });
    } else if (this.state.kind === 'report') {
      const full = live.run.report();
      if (!full || !live.run.credit) {
        this.post({ type: 'error', message: `${live.run.location.name} has no credit log.` });
        return;
      }
      this.post({ type: 'report/data', report: reportView(live.run.location.name, full, live.run.credit.schemaCheck(), live.run.credit) });
    } else {
      const q = this.state.query ?? { filter: {}, sort: [] };
      const lq = this.lastQuery;
      await this.sendPage(q, lq && !initial ? lq.offset : 0, lq?.limit ?? 200);
      if (initial && this.state.selected && live.run.credit) {
        const row = live.run.credit.find(this.state.selected.iteration, this.state.selected.group, this.state.selected.rollout);
        if (row >= 0) await this.sendDetail(row);
      }
    }
  }

  private async sendPage(q: QueryView, offset: number, limit: number): Promise<void> {
    const live = this.live();
    const idx = live?.run.credit;
    if (!live || !idx) {
      this.post({ type: 'error', message: 'This run has no credit log.' });
      return;
    }
    this.lastQuery = { q, offset, limit };
    let textRows: Set<number> | undefined;
    const spec = querySpec(q);
    const text = spec.filter.text?.trim();
    if (text) {
      if (!this.textCache || this.textCache.text !== text || this.textCache.size !== idx.size) {
        this.post({
          type: 'trajectories/page',
          runName: live.run.location.name,
          query: q,
          total: 0,
          offset: 0,
          rows: [],
          label: this.state.label ?? null,
          searching: true,
        });
        this.textCache = { text, size: idx.size, rows: await textSearch(idx, text) };
      }
      textRows = this.textCache.rows;
    }
    const gateRows = spec.filter.gate ? new Set(live.run.report()?.gateGroups.flatMap((g) => g.rows) ?? []) : undefined;
    const rows = queryRows(idx, spec, gateRows, textRows);
    this.post({
      type: 'trajectories/page',
      runName: live.run.location.name,
      query: q,
      total: rows.length,
      offset,
      rows: page(idx, rows, offset, limit).map(rowView),
      label: this.state.label ?? null,
      searching: false,
    });
    if (this.state.selected) {
      const sel = idx.find(this.state.selected.iteration, this.state.selected.group, this.state.selected.rollout);
      const at = rows.indexOf(sel);
      if (sel >= 0) this.post({ type: 'trajectories/select', row: sel, index: at });
    }
  }

  private async sendDetail(row: number): Promise<void> {
    const live = this.live();
    const idx = live?.run.credit;
    if (!live || !idx || row >= idx.size) return;
    try {
      const t = await idx.read(row);
      this.state.selected = { iteration: t.iteration, group: t.group, rollout: t.rollout };
      this.mgr.remember(this.state);
      this.post({ type: 'trajectories/detail', detail: detailView(idx, row, t) });
    } catch (e) {
      this.post({ type: 'error', message: (e as Error).message });
    }
  }

  dispose(): void {
    if (this.pushTimer) clearTimeout(this.pushTimer);
    for (const s of this.subs) s.dispose();
    this.mgr.forget(this);
  }
}

export class PanelManager implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly panels = new Set<Panel>();

  readonly extensionUri: vscode.Uri;

  constructor(
    private readonly ctx: vscode.ExtensionContext,
    readonly runs: RunService,
    readonly revealRow: (root: string, row: number) => Promise<void>,
  ) {
    this.extensionUri = ctx.extensionUri;
  }

  webviewOptions(): vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.ctx.extensionUri, 'dist', 'webview'),
        vscode.Uri.joinPath(this.ctx.extensionUri, 'media'),
      ],
    };
  }

  html(webview: vscode.Webview, state: PanelState): string {
    const dist = vscode.Uri.joinPath(this.ctx.extensionUri, 'dist', 'webview');
    return buildHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, `${state.kind}.js`)).toString(),
      // codicons only where the page shows them (the dashboard's pins)
      styleUris: [
        ...(state.kind === 'metrics' ? [webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.css')).toString()] : []),
        webview.asWebviewUri(vscode.Uri.joinPath(this.ctx.extensionUri, 'media', 'webview.css')).toString(),
      ],
      title: TITLES[state.kind],
      initialState: state,
    });
  }

  /** The last navigation state of a kind of panel, for the serializer. */
  remember(state: PanelState): void {
    void this.ctx.workspaceState.update(`panel:${state.kind}`, state);
  }

  /** Pinned metrics of a run, remembered per workspace. */
  pins(root: string): string[] {
    return this.ctx.workspaceState.get<string[]>(`pins:${root}`, []);
  }

  async setPins(root: string, pinned: string[]): Promise<void> {
    await this.ctx.workspaceState.update(`pins:${root}`, pinned);
  }

  find(kind: PanelKind, root: string): Panel | undefined {
    return [...this.panels].find((p) => p.kind === kind && p.root === root);
  }

  async open(kind: PanelKind, root: string): Promise<Panel> {
    const existing = this.find(kind, root);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(`rlRunBrowser.${kind}`, TITLES[kind], vscode.ViewColumn.Active, this.webviewOptions());
    this.remember({ kind, root });
    const p = new Panel(panel, { kind, root }, this);
    this.panels.add(p);
    return p;
  }

  async openTrajectories(
    root: string,
    query: QueryView | undefined,
    label: string | null,
    select?: { iteration: number; group: number; rollout: number },
  ): Promise<void> {
    const existing = this.find('trajectories', root);
    if (existing) {
      existing.navigate(query, label, select);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      'rlRunBrowser.trajectories',
      TITLES.trajectories,
      vscode.ViewColumn.Active,
      this.webviewOptions(),
    );
    const state: PanelState = { kind: 'trajectories', root, ...(query ? { query } : {}), label, ...(select ? { selected: select } : {}) };
    this.remember(state);
    const p = new Panel(panel, state, this);
    this.panels.add(p);
  }

  /** Restores a panel after a window reload, with the same options and its saved state. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const kind = panel.viewType.replace('rlRunBrowser.', '') as PanelKind;
    const valid = (x: unknown): x is PanelState => !!x && typeof (x as PanelState).root === 'string' && (x as PanelState).kind === kind;
    // the webview's own state, else what the host remembered (the webview may not have saved it before the reload)
    const remembered = this.ctx.workspaceState.get<PanelState>(`panel:${kind}`);
    const s = valid(state)
      ? {
          ...remembered,
          ...state,
          ...(kind === 'trajectories' && remembered?.root === state.root && remembered.selected ? { selected: remembered.selected } : {}),
        }
      : valid(remembered)
        ? remembered
        : undefined;
    if (!s) {
      panel.dispose();
      return;
    }
    if (!this.runs.get(s.root)) {
      await this.runs.scan();
      if (!this.runs.get(s.root)) await this.runs.add(s.root);
    }
    this.panels.add(new Panel(panel, s, this));
  }

  forget(p: Panel): void {
    this.panels.delete(p);
  }

  dispose(): void {
    for (const p of [...this.panels]) p.panel.dispose();
  }
}
