/**
 * The trajectory browser: the table in pages for the page's query, one trajectory at a
 * time for the detail, and navigation from other panels (a jump sets query and label).
 */
import type { TrajectoryQuery } from '../../shared/shapes';
import * as vscode from 'vscode';
import type { PanelState, TrajectoryKey } from '../../shared/protocol';
import type { BrowserAction, TrajectoriesHostMessage, TrajectoriesWebviewMessage } from '../../shared/protocol/trajectories';
import { parseTrajectoriesMessage } from '../../shared/protocol/trajectories';
import { queryRows, page, textSearch } from '../../core/run/query';
import type { PanelSite } from '../panels/panelHost';
import { PanelHost } from '../panels/panelHost';
import { rowView, detailView } from './trajectoryViews';
import type { Sibling } from './trajectoryViews';
import { querySpec } from './queryViews';
import { errorMessage } from '../../core/errorMessage';
import { EpisodeSource } from './episodeSource';
import { firstMatch, trajectoryFields } from '../../core/run/textMatch';
import type { CreditIndex } from '../../core/log/creditIndex';
import type { RowView } from '../../shared/protocol/trajectories';

export class TrajectoriesPanel extends PanelHost<TrajectoriesWebviewMessage, TrajectoriesHostMessage> {
  private textCache: { text: string; size: number; rows: Set<number> } | undefined;
  private lastQuery: { q: TrajectoryQuery; offset: number; limit: number } | undefined;
  /** a link's turn, sent again after the next detail of its row */
  private pendingTurn: { row: number; turn: number } | undefined;
  /** the eval episodes' source, for the run it was made for */
  private episodes: EpisodeSource | undefined;
  /** the eval episode the detail shows (a training detail clears it), whose place each page of episodes says */
  private shownEpisode: number | undefined;
  /**
   * The detail asked for last (a trajectory or an episode): each answer is read from the log in its
   * own time, and one asked for before another finishes after it, so only the last asked is shown.
   */
  private detailAsked = 0;

  constructor(panel: vscode.WebviewPanel, state: PanelState, site: PanelSite<PanelState>) {
    super(panel, state, site, parseTrajectoriesMessage);
    this._register({ dispose: () => this.episodes?.dispose() });
  }

  /** Shows the browser at a query and, optionally, a trajectory; `beside`: in the column beside the active one. */
  navigate(query: TrajectoryQuery | undefined, label: string | null, select?: TrajectoryKey, beside = false): void {
    if (query) this.state.query = query;
    this.state.label = label;
    if (select) this.state.selected = select;
    this.remember();
    this.panel.reveal(beside ? vscode.ViewColumn.Beside : undefined, false);
    if (!this.ready) return; // the page starts from the state
    this.post({ type: 'trajectories/navigate', query: this.state.query ?? { filter: {}, sort: [] }, label, select: select ?? null });
    this.background(this.refresh(true), 'cannot show the trajectories');
  }

  /** The trajectory the browser shows (a link's, an agent's or the user's pick). */
  get selected(): TrajectoryKey | undefined {
    return this.state.selected;
  }

  /** Scrolls the detail of `row` to `turn` (a link's turn): now if the page listens, and after that row's next detail. */
  focusTurn(row: number, turn: number): void {
    this.pendingTurn = { row, turn };
    if (this.ready) this.post({ type: 'trajectories/focusTurn', row, turn });
  }

  /** A keyboard shortcut of the browser, done by the page. */
  act(action: BrowserAction): void {
    this.post({ type: 'trajectories/do', action });
  }

  protected async onMessage(m: TrajectoriesWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'trajectories/query':
        // a jump's label names its query: once the page sets another, the label would be stale
        if (m.changed) this.state.label = null;
        this.state.query = m.query;
        this.remember();
        await this.sendPage(m.query, m.offset, m.limit);
        break;
      case 'trajectories/open':
        await this.sendDetail(m.row);
        break;
      case 'trajectories/openEpisode':
        await this.sendEpisode(m.episode);
        break;
      case 'trajectories/reveal':
        await this.deps.navigate.revealRow(this.root, m.row);
        break;
      case 'openTrajectory':
        await this.deps.navigate.openTrajectories(this.root, undefined, null, {
          iteration: m.iteration,
          group: m.group,
          rollout: m.rollout,
        });
        break;
      case 'openMetrics':
        await this.deps.navigate.open('metrics', this.root);
        break;
      case 'trajectories/share':
        await this.deps.navigate.share(m.action, { root: this.root, key: m.key, turn: m.turn, query: m.query });
        break;
      case 'trajectories/compare':
        this.deps.navigate.openSideBySide({ run: this.root, ...m.a }, { run: this.root, ...m.b });
        break;
      case 'ready': // answered by PanelHost
        break;
    }
  }

  protected async push(initial: boolean): Promise<void> {
    const live = this.live();
    if (!live) {
      this.post({ type: 'error', message: `The run ${this.root} is not open (no log found there).` });
      return;
    }
    const q = this.state.query ?? { filter: {}, sort: [] };
    const lq = this.lastQuery;
    await this.sendPage(q, lq && !initial ? lq.offset : 0, lq?.limit ?? 200);
    const sel = this.state.selected;
    if (initial && sel && live.run.credit && q.filter.evalIteration === undefined) {
      const row = live.run.credit.find(sel.iteration, sel.group, sel.rollout);
      if (row >= 0) await this.sendDetail(row);
    }
  }

  /** The eval episodes' source of the run shown now. */
  private episodeSource(): EpisodeSource | undefined {
    const run = this.live()?.run;
    if (!run) return undefined;
    if (this.episodes?.run !== run) {
      this.episodes?.dispose();
      this.episodes = new EpisodeSource(run);
    }
    return this.episodes;
  }

  /** A page of the checkpoint's eval episodes (the query's `evalIteration`). */
  private async sendEpisodePage(q: TrajectoryQuery, offset: number, limit: number): Promise<void> {
    const live = this.live();
    const source = this.episodeSource();
    if (!live || !source) return;
    this.lastQuery = { q, offset, limit };
    const p = await source.page(q, offset, limit, this.shownEpisode);
    if (!p.ok) return this.post({ type: 'error', message: p.message });
    this.post({ type: 'trajectories/page', runName: live.run.location.name, label: this.state.label ?? null, ...p.page });
    // the detail's episode, in this list or not (the page says so rather than show one the list no longer holds)
    if (this.shownEpisode !== undefined) this.post({ type: 'trajectories/select', query: q, row: this.shownEpisode, index: p.at });
  }

  private async sendEpisode(episode: number): Promise<void> {
    const asked = ++this.detailAsked;
    try {
      const detail = await this.episodeSource()?.detail(episode);
      if (!detail || asked !== this.detailAsked) return;
      this.shownEpisode = episode;
      this.post({ type: 'trajectories/episode', episode: detail });
    } catch (e) {
      if (asked === this.detailAsked) this.post({ type: 'error', message: errorMessage(e) });
    }
  }

  private async sendPage(q: TrajectoryQuery, offset: number, limit: number): Promise<void> {
    if (q.filter.evalIteration !== undefined) return this.sendEpisodePage(q, offset, limit);
    const live = this.live();
    const idx = live?.run.credit;
    if (!live || !idx) {
      this.post({ type: 'error', message: 'This run has no credit log.' });
      return;
    }
    this.lastQuery = { q, offset, limit };
    const spec = querySpec(q);
    let textRows: Set<number> | undefined;
    const text = spec.filter.text?.trim();
    if (text) {
      if (!this.textCache || this.textCache.text !== text || this.textCache.size !== idx.size) {
        this.post({
          type: 'trajectories/page',
          runName: live.run.location.name,
          query: q,
          total: 0,
          size: idx.size,
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
    const views = page(idx, rows, offset, limit).map(rowView);
    if (text) await withMatches(idx, views, text);
    this.post({
      type: 'trajectories/page',
      runName: live.run.location.name,
      query: q,
      total: rows.length,
      size: idx.size,
      offset,
      rows: views,
      label: this.state.label ?? null,
      searching: false,
    });
    const selected = this.state.selected;
    if (selected) {
      const sel = idx.find(selected.iteration, selected.group, selected.rollout);
      const at = rows.indexOf(sel);
      if (sel >= 0) this.post({ type: 'trajectories/select', query: q, row: sel, index: at });
    }
  }

  private async sendDetail(row: number): Promise<void> {
    const live = this.live();
    const idx = live?.run.credit;
    if (!live || !idx || row >= idx.size) return;
    const asked = ++this.detailAsked;
    try {
      const t = await idx.read(row);
      if (asked !== this.detailAsked) return;
      this.shownEpisode = undefined;
      this.state.selected = { iteration: t.iteration, group: t.group, rollout: t.rollout };
      this.remember();
      const siblings: Sibling[] = [];
      for (const r of idx.groupRows(t.iteration, t.group)) siblings.push({ row: r, t: r === row ? t : await idx.read(r) });
      if (asked !== this.detailAsked) return;
      const gateGroups = live.run.report()?.gateGroups;
      this.post({ type: 'trajectories/detail', detail: detailView(idx, row, t, siblings, gateGroups) });
      if (this.pendingTurn?.row === row) {
        this.post({ type: 'trajectories/focusTurn', ...this.pendingTurn });
        this.pendingTurn = undefined;
      }
    } catch (e) {
      if (asked === this.detailAsked) this.post({ type: 'error', message: errorMessage(e) });
    }
  }
}

/** Each row's place of the searched text, read back from its record (a record that cannot be read has none). */
async function withMatches(idx: CreditIndex, rows: RowView[], text: string): Promise<void> {
  for (const r of rows)
    r.match = await idx.read(r.row).then(
      (t) => firstMatch(trajectoryFields(t), text),
      () => null,
    );
}
