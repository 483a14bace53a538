/**
 * The runs table: every run the window knows (the workspace's runs, the Hub runs read in place,
 * the folders the user added) and the followed Hub repos not read yet, one row each with core's
 * figures (src/core/runs/runsTable.ts, what `rlrb runs` prints, kept with the saved indexes so a
 * second open reads no log). Sorting, filtering and ticking rows happen in the page; a click on a
 * cell opens the view behind it here.
 */
import type * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunsColumn, RunsTableHostMessage, RunsTableState, RunsTableWebviewMessage } from '../../shared/protocol/runsTable';
import { columnTag, parseRunsTableMessage, parseRunsTableState } from '../../shared/protocol/runsTable';
import { runsTable } from '../../core/runs/runsTable';
import type { RunsTable, TableRun } from '../../core/runs/runsTable';
import { hubRefText } from '../../core/hub/inPlace/hubRef';
import { errorMessage } from '../../core/errorMessage';
import { TAG_WORDS } from '../../shared/tagWords';
import type { LiveRun } from '../runs/runService';
import type { PanelSite } from '../panels/panelHost';
import type { PanelKindSpec } from '../panels/panelRegistry';
import { PanelHost } from '../panels/panelHost';
import { runsTableView } from './runsTableViews';
import type { TableEntry } from './runsTableViews';

/** What the table needs from the rest of the extension (given once, at activation). */
export interface RunsTableSources {
  /** the followed Hub repos */
  repos(): readonly string[];
  /** reads a followed repo's logs in place: the run's root, or undefined (the user was told why) */
  readInPlace(repo: string): Promise<string | undefined>;
  /** a Hub run's card text (its settings where the logs say none) */
  hubCard(root: string): Promise<string | undefined>;
  /** asks for a run folder: its path, or undefined */
  pickFolder(): Promise<string | undefined>;
  compare(a: string, b: string): void;
  /** the first run's dashboard with the others overlaid */
  overlay(roots: readonly string[]): Promise<void>;
  /** the first run's dashboard scrolled to its reward chart */
  openReward(root: string): Promise<void>;
  /** a one-line message to the user */
  tell(line: string): void;
}

const CARD_MAX_BYTES = 1 << 20;

async function localCard(root: string): Promise<string | undefined> {
  const buf = await readFile(join(root, 'README.md')).catch(() => undefined);
  return buf?.subarray(0, CARD_MAX_BYTES).toString('utf8');
}

export class RunsTablePanel extends PanelHost<RunsTableWebviewMessage, RunsTableHostMessage, RunsTableState> {
  /** the roots shown at the last push (a change of one of them pushes again) */
  private roots = new Set<string>();
  private seq = 0;

  constructor(
    panel: vscode.WebviewPanel,
    state: RunsTableState,
    site: PanelSite<RunsTableState>,
    private readonly sources: () => RunsTableSources | undefined,
  ) {
    super(panel, state, site, parseRunsTableMessage, { title: 'Runs', script: 'runsTable', styles: ['runsTable.css'], codicons: true });
    panel.title = 'Runs';
  }

  protected override shows(root: string | undefined): boolean {
    return root !== undefined && this.roots.has(root);
  }

  /** The runs in the table's order: the workspace's and the Hub's, then the added folders, then the followed repos not read. */
  private async entries(): Promise<{ entries: TableEntry[]; live: Map<string, LiveRun> }> {
    const runs = this.deps.runs;
    await runs.scanned();
    const live = new Map<string, LiveRun>();
    for (const path of this.state.added ?? []) {
      const l = await runs.ensure(path, 'settled').catch(() => undefined);
      if (l) live.set(l.run.location.root, l);
    }
    const added = new Set(live.keys());
    for (const l of runs.list()) live.set(l.run.location.root, l);
    const entries: TableEntry[] = [...live.values()].map((l) => ({
      root: l.run.location.root,
      name: l.run.location.name,
      source: l.run.location.remote ? 'hub' : added.has(l.run.location.root) ? 'added' : 'local',
      ...(l.run.credit ? {} : { note: 'no credit log: no figures' }),
    }));
    entries.sort((a, b) => Number(a.source === 'added') - Number(b.source === 'added'));
    for (const repo of this.sources()?.repos() ?? []) {
      const root = hubRefText({ repo, revision: 'main' });
      if (!live.has(root)) entries.push({ root, name: repo, source: 'hub', note: 'followed on the Hub; logs not read', readable: true });
    }
    return { entries, live };
  }

  private tableRun(l: LiveRun): TableRun {
    const run = l.run;
    const remote = run.location.remote !== undefined;
    return {
      name: run.location.name,
      run,
      // a Hub run is read when it is added; a local one reads only what is new since
      read: remote ? (): Promise<void> => Promise.resolve() : (): Promise<void> => run.update(),
      card: remote
        ? (): Promise<string | undefined> => this.hubCard(run.location.root)
        : (): Promise<string | undefined> => localCard(run.location.root),
    };
  }

  private async hubCard(root: string): Promise<string | undefined> {
    return this.sources()
      ?.hubCard(root)
      .catch(() => undefined);
  }

  protected async push(initial = true): Promise<void> {
    const seq = ++this.seq;
    const { entries, live } = await this.entries();
    this.roots = new Set(entries.map((e) => e.root));
    const baseline = this.state.baseline && live.has(this.state.baseline) ? this.state.baseline : null;
    // the rows named at once, their figures when computed; a run that grew keeps its old figures meanwhile
    if (initial) this.post({ type: 'runsTable/view', view: runsTableView(entries, undefined, baseline) });
    const computed = entries.filter((e) => e.note === undefined).map((e) => this.tableRun(live.get(e.root)!));
    let table: RunsTable;
    try {
      const base = computed.find((t) => t.run.location.root === baseline);
      table = await runsTable(computed, base);
    } catch (e) {
      if (seq === this.seq) this.post({ type: 'error', message: `The runs table could not be computed: ${errorMessage(e)}` });
      return;
    }
    if (seq !== this.seq) return;
    this.post({ type: 'runsTable/view', view: runsTableView(entries, table, baseline) });
  }

  protected async onMessage(m: RunsTableWebviewMessage): Promise<void> {
    const src = this.sources();
    switch (m.type) {
      case 'runsTable/open':
        if (this.roots.has(m.root)) await this.open(m.root, m.column);
        return;
      case 'runsTable/baseline':
        if (m.root !== null && !this.roots.has(m.root)) return;
        this.state.baseline = m.root;
        this.remember();
        await this.refresh();
        return;
      case 'runsTable/compare':
        if (m.roots.length === 2 && m.roots.every((r) => this.roots.has(r))) src?.compare(m.roots[0]!, m.roots[1]!);
        return;
      case 'runsTable/overlay':
        if (m.roots.every((r) => this.roots.has(r))) await src?.overlay(m.roots);
        return;
      case 'runsTable/add': {
        const path = await src?.pickFolder();
        if (path === undefined) return;
        const l = await this.deps.runs.ensure(path, 'settled');
        if (!l) return src?.tell(`no run in ${path} (no logs/ws_credit_log.jsonl or ws_metrics.jsonl there)`);
        this.state.added = [...new Set([...(this.state.added ?? []), l.run.location.root])];
        this.remember();
        await this.refresh();
        return;
      }
      case 'runsTable/read': {
        const repo = this.roots.has(m.root) && m.root.startsWith('hub:') ? m.root.slice(4) : undefined;
        if (repo !== undefined && (await src?.readInPlace(repo)) !== undefined) await this.refresh();
        return;
      }
      case 'runsTable/state':
        this.state.sort = m.sort ?? undefined;
        this.state.filter = m.filter;
        this.state.selected = m.selected;
        this.remember();
        return;
      default:
        return;
    }
  }

  /** The view behind a cell: the dashboard, the browser (a tag's or the last checkpoint's episodes), the report, the comparison. */
  private async open(root: string, column: RunsColumn): Promise<void> {
    const nav = this.deps.navigate;
    const tag = columnTag(column);
    if (tag) return nav.openTrajectories(root, { filter: { tags: [tag] }, sort: [] }, `runs table: ${TAG_WORDS[tag].label}`);
    switch (column) {
      case 'rewardFirst':
      case 'rewardLast':
        return this.sources()?.openReward(root);
      case 'trajectories':
        return nav.openTrajectories(root, { filter: {}, sort: [] }, null);
      case 'gateDiff':
      case 'gateP':
      case 'signFlip':
      case 'fallback':
      case 'argmax':
        await nav.open('report', root);
        return;
      case 'evalSuccess': {
        const last = this.deps.runs.get(root)?.run.evalSummary()?.iterations.at(-1);
        if (last) await nav.openTrajectories(root, { filter: { evalIteration: last.iteration }, sort: [] }, 'runs table: last evaluation');
        return;
      }
      case 'verdict':
        if (this.state.baseline && this.state.baseline !== root) this.sources()?.compare(root, this.state.baseline);
        return;
      default:
        await nav.open('metrics', root);
    }
  }
}

/** One runs table a window; restored from its page's state, else the remembered one. */
export function runsTableKind(sources: () => RunsTableSources | undefined): PanelKindSpec<RunsTableState, RunsTablePanel> {
  return {
    viewType: 'rlRunBrowser.runsTable',
    title: 'Runs',
    memoryKey: 'panel:runsTable',
    key: () => 'runsTable',
    roots: () => [],
    // the host remembers every change the page reports, so its copy is as fresh as the page's
    restore: (saved, remembered) => parseRunsTableState(remembered) ?? parseRunsTableState(saved),
    create: (panel, state, site) => new RunsTablePanel(panel, state, site, sources),
  };
}
