/**
 * The panels service: every kind of panel in one registry (the run panels, one per kind
 * and run; the comparison, one per ordered pair; the task view and the side-by-side
 * view), and the navigator through which panels and commands open each other.
 */
import type { TrajectoryQuery } from '../../shared/shapes';
import type * as vscode from 'vscode';
import type { PanelKind, PanelState, TrajectoryKey } from '../../shared/protocol';
import type { MetricsPanelState } from '../../shared/protocol/metrics';
import type { RunTrajectoryKey, SideBySideState, TaskPanelState } from '../../shared/protocol/task';
import type { CompareState } from '../../shared/protocol/compare';
import type { RunService } from '../runs/runService';
import type { OpenPanel, PanelNavigator, PanelSite, PinStore, ShareActions } from './panelHost';
import type { ShareAction } from '../../shared/protocol/trajectories';
import type { ShareArgs } from '../share/shareArgs';
import { TITLES } from './panelHost';
import type { PanelKindSpec, PanelSet } from './panelRegistry';
import { PanelRegistry } from './panelRegistry';
import { MetricsPanel } from '../metrics/metricsPanel';
import { TrajectoriesPanel } from '../trajectories/trajectoriesPanel';
import { ReportPanel } from '../report/reportPanel';
import type { ComparePanel } from '../compare/comparePanel';
import { COMPARE_KIND } from '../compare/comparePanel';
import type { TaskPanel } from '../task/taskPanel';
import { TASK_KIND } from '../task/taskPanel';
import type { SideBySidePanel } from '../task/sideBySidePanel';
import { SIDE_BY_SIDE_KIND } from '../task/sideBySidePanel';
import type { FailureLog } from '../background';
import type { RunsTablePanel, RunsTableSources } from '../runsTable/runsTablePanel';
import { runsTableKind } from '../runsTable/runsTablePanel';
import type { RunsTableState } from '../../shared/protocol/runsTable';

/** Pinned metrics of a run, remembered per workspace. */
class WorkspacePins implements PinStore {
  constructor(private readonly memento: vscode.Memento) {}

  get(root: string): string[] {
    return this.memento.get<string[]>(`pins:${root}`, []);
  }
  async set(root: string, pinned: string[]): Promise<void> {
    await this.memento.update(`pins:${root}`, pinned);
  }
}

/**
 * The webview's own state, else what the host remembered (the webview may not have saved it
 * before the reload). What the host owns (a browser's selection, a dashboard's overlaid runs)
 * comes from the fresher of the two: the workbench writes them to storage at different moments.
 */
function restoredState<S extends PanelState>(kind: PanelKind, saved: unknown, remembered: unknown): S | undefined {
  const valid = (x: unknown): x is S => !!x && typeof (x as S).root === 'string' && (x as S).kind === kind;
  const known = valid(remembered) ? remembered : undefined;
  if (!valid(saved)) return known;
  if (known?.root !== saved.root) return saved;
  return {
    ...known,
    ...saved,
    ...(kind === 'trajectories' && known.selected ? { selected: known.selected } : {}),
    ...(kind === 'metrics' ? fresherOverlay(saved, known) : {}),
  };
}

/** The overlaid runs of whichever state the host changed them in last. */
function fresherOverlay(a: MetricsPanelState, b: MetricsPanelState): Pick<MetricsPanelState, 'overlay' | 'overlayAt'> {
  const at = (s: MetricsPanelState): number => (typeof s.overlayAt === 'number' ? s.overlayAt : 0);
  const s = at(b) > at(a) ? b : a;
  return { overlay: s.overlay, overlayAt: at(s) };
}

/** A run panel's kind: one panel per run, its last state remembered per workspace under `panel:<kind>`. */
function runKind<S extends PanelState, P extends OpenPanel>(
  kind: PanelKind,
  create: (panel: vscode.WebviewPanel, state: S, site: PanelSite<S>) => P,
): PanelKindSpec<S, P> {
  return {
    viewType: `rlRunBrowser.${kind}`,
    title: TITLES[kind],
    memoryKey: `panel:${kind}`,
    key: (s) => s.root,
    roots: (s) => [s.root],
    restore: (saved, remembered) => restoredState<S>(kind, saved, remembered),
    create,
  };
}

/** How long the pair's second browser waits for the first page to listen. */
const PAIR_READY_MS = 30_000;

export class PanelManager implements PanelNavigator, vscode.Disposable {
  private readonly registry: PanelRegistry;
  private readonly metrics: PanelSet<MetricsPanelState, MetricsPanel>;
  private readonly trajectories: PanelSet<PanelState, TrajectoriesPanel>;
  private readonly report: PanelSet<PanelState, ReportPanel>;
  private readonly compare: PanelSet<CompareState, ComparePanel>;
  private readonly tasks: PanelSet<TaskPanelState, TaskPanel>;
  private readonly pairs: PanelSet<SideBySideState, SideBySidePanel>;
  private readonly runsTables: PanelSet<RunsTableState, RunsTablePanel>;
  private runsSources: RunsTableSources | undefined;
  private shareActions: ShareActions | undefined;

  constructor(
    ctx: Pick<vscode.ExtensionContext, 'extensionUri' | 'workspaceState'>,
    runs: RunService,
    readonly revealRow: (root: string, row: number) => Promise<void>,
    log: FailureLog,
  ) {
    const pins = new WorkspacePins(ctx.workspaceState);
    this.registry = new PanelRegistry({ extensionUri: ctx.extensionUri, runs, navigate: this, log }, ctx.workspaceState);
    this.metrics = this.registry.kind(runKind('metrics', (panel, state, site) => new MetricsPanel(panel, state, site, pins)));
    this.trajectories = this.registry.kind(runKind('trajectories', (panel, state, site) => new TrajectoriesPanel(panel, state, site)));
    this.report = this.registry.kind(runKind('report', (panel, state, site) => new ReportPanel(panel, state, site)));
    this.compare = this.registry.kind(COMPARE_KIND);
    this.tasks = this.registry.kind(TASK_KIND);
    this.pairs = this.registry.kind(SIDE_BY_SIDE_KIND);
    this.runsTables = this.registry.kind(runsTableKind(() => this.runsSources));
  }

  /** The serializers of every kind of panel (for the context's subscriptions). */
  register(): vscode.Disposable[] {
    return this.registry.register();
  }

  /** Restores a panel of any kind after a window reload. */
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    return this.registry.deserializeWebviewPanel(panel, state);
  }

  private runSet(kind: PanelKind): PanelSet<PanelState, OpenPanel> {
    return kind === 'metrics' ? this.metrics : kind === 'trajectories' ? this.trajectories : this.report;
  }

  find(kind: PanelKind, root: string): OpenPanel | undefined {
    return this.runSet(kind).find({ kind, root });
  }

  async open(kind: PanelKind, root: string): Promise<OpenPanel> {
    return this.runSet(kind).show({ kind, root });
  }

  async openTrajectories(root: string, query: TrajectoryQuery | undefined, label: string | null, select?: TrajectoryKey): Promise<void> {
    const existing = this.trajectories.find({ kind: 'trajectories', root });
    if (existing) {
      existing.navigate(query, label, select);
      return;
    }
    this.trajectories.create({ kind: 'trajectories', root, ...(query ? { query } : {}), label, ...(select ? { selected: select } : {}) });
  }

  /** The verdict's task: its eval episodes at `iteration` in run A's browser and, beside it, run B's (README: where eval episodes open). */
  async openEvalEpisodes(roots: readonly string[], task: string, iteration: number): Promise<void> {
    const names = ['A', 'B'];
    for (const [i, root] of roots.entries()) {
      const query: TrajectoryQuery = { filter: { evalIteration: iteration, evalTask: task }, sort: [] };
      const label = roots.length > 1 ? `run ${names[i] ?? i + 1} of the comparison` : null;
      const existing = this.trajectories.find({ kind: 'trajectories', root });
      if (existing) existing.navigate(query, label, undefined, i > 0);
      // one webview at a time: two created at once can leave one of them blank (see loadWatchdog.ts);
      // on a loaded machine a page may take more than the default 10 s to listen
      else await this.trajectories.create({ kind: 'trajectories', root, query, label }, i > 0).whenReady(PAIR_READY_MS);
    }
  }

  /** The comparison of run A with run B (the ordered pair). */
  openCompare(rootA: string, rootB: string): ComparePanel {
    return this.compare.show({ kind: 'compare', rootA, rootB, root: rootA });
  }

  /**
   * The task view of `task` over `runs`: that one when open, else an open task view of the
   * same runs shows it (no new webview), else a new one.
   */
  openTask(task: string, runs: string[]): TaskPanel {
    const state: TaskPanelState = { kind: 'task', root: runs[0]!, task, runs };
    const same = this.tasks.find(state);
    const reused = same ? undefined : this.tasks.all.find((p) => JSON.stringify(p.runs) === JSON.stringify(runs));
    if (!reused) return this.tasks.show(state);
    this.tasks.rekey(reused, state);
    reused.showTask(task);
    return reused;
  }

  openSideBySide(left: RunTrajectoryKey, right: RunTrajectoryKey): SideBySidePanel {
    return this.pairs.show({ kind: 'sideBySide', root: left.run, left, right });
  }

  /** The runs table (one a window). */
  openRunsTable(): RunsTablePanel {
    return this.runsTables.show({ kind: 'runsTable', root: '' });
  }

  /** What the runs table needs from the other features (set once, at activation). */
  useRunsTableSources(sources: RunsTableSources): void {
    this.runsSources = sources;
  }

  /** The share feature's actions, for the browser's share buttons (set once, at activation). */
  useShareActions(actions: ShareActions): void {
    this.shareActions = actions;
  }

  async share(action: ShareAction, args: ShareArgs): Promise<void> {
    await this.shareActions?.[action](args);
  }

  dispose(): void {
    this.registry.dispose();
  }
}
