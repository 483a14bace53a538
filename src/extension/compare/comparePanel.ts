/**
 * The comparison panel of two runs, over PanelHost (its page, state and message pump):
 * computes section 6 on the host (RunComparer), sends the figures, answers the per-task
 * table's pages, and computes again when either run's logs grow (PanelHost's push, after
 * the burst settles; one computation at a time).
 */
import * as vscode from 'vscode';
import { RunComparer } from '../../core/compare/compareRuns';
import { keptComparison } from '../../core/compare/keptComparison';
import { Run } from '../../core/run/run';
import type { RunComparison } from '../../core/compare/compareRuns';
import type { TaskRow } from '../../core/compare/figures';
import type { EvalOutcome } from '../../core/eval/evalFigures';
import { runLink, runRefOf } from '../share/runOrigin';
import type {
  CompareHostMessage,
  CompareState,
  CompareWebviewMessage,
  QueryTasksMessage,
  QueryVerdictTasksMessage,
} from '../../shared/protocol/compare';
import { parseCompareMessage, parseCompareState } from '../../shared/protocol/compare';
import type { LiveRun } from '../runs/runService';
import type { PanelSite } from '../panels/panelHost';
import type { PanelKindSpec } from '../panels/panelRegistry';
import { PanelHost } from '../panels/panelHost';
import { compareChartsView, compareView, queryTaskRows, taskRowView } from './compareViews';
import { errorMessage } from '../../core/errorMessage';
import { heldVerdict, verdictTasks, verdictViewAt } from './verdictViews';
import type { HeldVerdict } from './verdictViews';
import { tagQuery } from './behaviourViews';
import { TAG_WORDS } from '../../shared/tagWords';
import type { TagName } from '../../shared/shapes';

const COMPARE_VIEW_TYPE = 'rlRunBrowser.compare';

const baseName = (root: string): string => root.split(/[\\/]/).filter(Boolean).pop() ?? root;

export class ComparePanel extends PanelHost<CompareWebviewMessage, CompareHostMessage, CompareState> {
  private closed = false;
  private computing: Promise<void> | undefined;
  private again = false;
  private comparer: RunComparer | undefined;
  private result: RunComparison | undefined;
  private version = 0;
  private lastQuery: QueryTasksMessage | undefined;
  private sorted: { key: string; rows: TaskRow[] } | undefined;
  private verdict: HeldVerdict | undefined;
  /** the checkpoint of the verdict's per-task table the page asked for last (undefined: the last checkpoint) */
  private verdictAt: number | undefined;
  /** the page asked for the charts (after its first paint): each computation sends them from then on */
  private chartsAsked = false;

  constructor(panel: vscode.WebviewPanel, state: CompareState, site: PanelSite<CompareState>) {
    super(panel, state, site, parseCompareMessage, {
      title: 'Compare runs',
      script: 'compare',
      styles: ['compare.css'],
      codicons: true,
    });
    panel.title = `Compare: ${baseName(state.rootA)} ↔ ${baseName(state.rootB)}`;
    this._register({
      dispose: () => {
        this.closed = true;
        this.comparer?.dispose();
      },
    });
    this.remember();
  }

  get pair(): [string, string] {
    return [this.state.rootA, this.state.rootB];
  }

  protected override shows(root: string | undefined): boolean {
    return root === this.state.rootA || root === this.state.rootB;
  }

  /** After `ready` and whenever either run changed: compute again. */
  protected push(): Promise<void> {
    return this.compute();
  }

  protected async onMessage(m: CompareWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'compare/queryCharts':
        this.chartsAsked = true;
        this.postCharts();
        break;
      case 'compare/queryTasks':
        this.lastQuery = m;
        this.answer(m);
        break;
      case 'compare/queryVerdictTasks':
        this.answerVerdictTasks(m);
        break;
      case 'compare/openTask':
        this.openTask(m.task);
        break;
      case 'compare/openEvalTask':
        await this.deps.navigate.openEvalEpisodes([this.state.rootA, this.state.rootB], m.task, m.iteration);
        break;
      case 'compare/copyLink':
        await this.copyLink();
        break;
      case 'compare/openTag':
        await this.openTag(m.tag);
        break;
      case 'ready': // answered by PanelHost
        break;
    }
  }

  /** One computation at a time; a change during one runs one more after it. */
  private compute(): Promise<void> {
    if (this.computing) {
      this.again = true;
      return this.computing;
    }
    this.computing = this.doCompute()
      .catch((e: unknown) => this.post({ type: 'error', message: `Cannot compare: ${errorMessage(e)}` }))
      .finally(() => {
        this.computing = undefined;
        if (this.again && !this.closed) {
          this.again = false;
          this.background(this.compute(), 'cannot compare the runs again');
        }
      });
    return this.computing;
  }

  private async doCompute(): Promise<void> {
    const [a, b] = await Promise.all([this.deps.runs.ensure(this.state.rootA), this.deps.runs.ensure(this.state.rootB)]);
    for (const [name, live, root] of [['A', a, this.state.rootA] as const, ['B', b, this.state.rootB] as const]) {
      if (!live) return this.post({ type: 'error', message: `Run ${name} (${root}) is not open: no log found there.` });
      if (!live.run.credit)
        return this.post({
          type: 'error',
          message: `Run ${name} (${root}) has no credit log (ws_credit_log.jsonl): a comparison needs one.`,
        });
    }
    await Promise.all([a!.run.update(), b!.run.update()]);
    await this.updateEvals(a!, b!);
    if (this.closed) return;
    // kept for these very logs (a second open of unchanged runs), else computed; the comparer,
    // made on the first miss, keeps each run's task column so that an append reads only new rows
    const got = await keptComparison(a!.run, b!.run, () => this.comparerOf(a!, b!));
    if (this.closed) return;
    this.result = got.value;
    this.version++;
    this.sorted = undefined;
    const side = (l: LiveRun): { name: string; root: string } => ({ name: l.run.location.name, root: l.run.location.root });
    // the runs' names once they are open (a downloaded repo's folder is "logs"; its run is named after the repo)
    this.panel.title = `Compare: ${a!.run.location.name} ↔ ${b!.run.location.name}`;
    this.post({ type: 'compare/data', view: compareView(this.result, side(a!), side(b!)) });
    if (this.chartsAsked) this.postCharts();
    const ev = (l: LiveRun): readonly EvalOutcome[] | undefined => l.run.evals?.episodes;
    // section 8's view over every eval episode (a second or more at 500,000 trajectories): made again only when either run changed
    const evaluation = this.result.evaluation;
    // the page gets one checkpoint's per-task rows (the one it shows); the host keeps the others for `compare/queryVerdictTasks`
    this.verdict = Run.heldAcross(a!.run, b!.run, 'verdict-view', () => heldVerdict(evaluation, ev(a!), ev(b!)));
    this.post({ type: 'compare/verdict', verdict: verdictViewAt(this.verdict, this.verdictAt) });
    if (this.lastQuery) this.answer(this.lastQuery);
  }

  private comparerOf(a: LiveRun, b: LiveRun): RunComparer {
    if (this.comparer?.a !== a.run || this.comparer.b !== b.run) {
      this.comparer?.dispose();
      this.comparer = new RunComparer(a.run, b.run);
    }
    return this.comparer;
  }

  /** A Hub log read in place is fetched only when asked: the verdict asks; a failure is a notice, not the end of the comparison. */
  private async updateEvals(a: LiveRun, b: LiveRun): Promise<void> {
    for (const [name, l] of [['A', a] as const, ['B', b] as const]) {
      if (!l.run.location.remote?.evals) continue;
      try {
        await l.run.updateEvals();
      } catch (e) {
        this.post({ type: 'compare/notice', message: `Run ${name}'s evaluation log could not be read: ${errorMessage(e)}` });
      }
    }
  }

  private postCharts(): void {
    if (this.result) this.post({ type: 'compare/charts', charts: compareChartsView(this.result) });
  }

  private answer(q: QueryTasksMessage): void {
    if (!this.result) return;
    const key = `${this.version}:${q.sort.key}:${q.sort.descending}:${q.text}`;
    if (this.sorted?.key !== key) this.sorted = { key, rows: queryTaskRows(this.result.perTask, q.sort, q.text) };
    const rows = this.sorted.rows;
    const offset = Math.min(q.offset, rows.length);
    this.post({
      type: 'compare/tasks',
      seq: q.seq,
      total: rows.length,
      offset,
      rows: rows.slice(offset, offset + q.limit).map(taskRowView),
    });
  }

  /** One checkpoint's per-task rows; a checkpoint the runs have not both evaluated gets null (and is not remembered). */
  private answerVerdictTasks(q: QueryVerdictTasksMessage): void {
    const got = this.verdict && verdictTasks(this.verdict, q.iteration);
    if (got) this.verdictAt = q.iteration;
    this.post({ type: 'compare/verdictTasks', seq: q.seq, iteration: q.iteration, rows: got?.rows ?? null });
  }

  private openTask(task: string): void {
    this.deps.navigate.openTask(task, [this.state.rootA, this.state.rootB]);
  }

  /** A behaviour line's tag: which run (a quick pick, unless A and B are one run), then its trajectories with the tag in the window. */
  private async openTag(tag: TagName): Promise<void> {
    const { rootA, rootB } = this.state;
    const name = (root: string): string => this.deps.runs.get(root)?.run.location.name ?? baseName(root);
    let root = rootA;
    if (rootB !== rootA) {
      const items = [
        { label: `A: ${name(rootA)}`, description: rootA, root: rootA },
        { label: `B: ${name(rootB)}`, description: rootB, root: rootB },
      ];
      const picked = await vscode.window.showQuickPick(items, {
        title: `Open the trajectories tagged ${TAG_WORDS[tag].label}`,
        placeHolder: 'Of which run?',
      });
      if (!picked) return;
      root = picked.root;
    }
    const side = root === rootA ? 'A' : 'B';
    const its = this.result?.figures.perIteration.map((r) => r.iteration) ?? [];
    await this.deps.navigate.openTrajectories(root, tagQuery(tag, its), `comparison: run ${side}, tag ${TAG_WORDS[tag].label}`);
  }

  /** The link of this comparison (view kind 'compare'). */
  link(): string {
    return runLink(this.state.rootA, { kind: 'compare', other: runRefOf(this.state.rootB) }, vscode.env.uriScheme);
  }

  private async copyLink(): Promise<void> {
    let text: string;
    try {
      text = this.link();
    } catch (e) {
      this.post({ type: 'compare/notice', message: `No link: ${errorMessage(e)}` });
      return;
    }
    await vscode.env.clipboard.writeText(text);
    this.post({ type: 'compare/notice', message: 'Copied the link to this comparison.' });
  }
}

/** One panel per ordered pair; a reload restores the page's state, else the last one the host remembered. */
export const COMPARE_KIND: PanelKindSpec<CompareState, ComparePanel> = {
  viewType: COMPARE_VIEW_TYPE,
  title: 'Compare runs',
  memoryKey: 'panel:compare',
  key: (s) => JSON.stringify([s.rootA, s.rootB]),
  roots: () => [],
  restore: (saved, remembered) => parseCompareState(saved) ?? parseCompareState(remembered),
  create: (panel, state, site) => new ComparePanel(panel, state, site),
};
