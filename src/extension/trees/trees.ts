/** Tree providers: thin adapters over the pure models of treeModel.ts. */
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { HubNode, LocalState, RunNode, TreeNode } from './treeModel';
import {
  hubRepoNode,
  hubRepoChildren,
  hubFolderChildren,
  hubFileNode,
  runNode,
  runChildren,
  iterationNodes,
  groupNodes,
  trajectoryNodes,
  problemBadge,
  evalCheckpointNodes,
} from './treeModel';
import { runProblems } from '../problems/dataProblems';
import type { HubService } from '../hub/hubService';
import type { LiveRun, RunService } from '../runs/runService';
import type { IterationInfo } from '../../core/hub/model';
import { currentLatest, localCompletion, planDownload } from '../../core/hub/download';
import { iterDirName } from '../../core/hub/model';
import { checkResumeFolder, filesOf } from '../../core/integrity/checkFolder';
import { resumeIntegrityView } from './integrityPresenter';
import type { IntegrityView } from './integrityPresenter';
import { Disposable, toDisposable } from '../dispose';
import type { HubEvalsOf } from './hubEvals';

function toItem(n: TreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    n.label,
    n.collapsible ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = n.id;
  if (n.description !== undefined) item.description = n.description;
  if (n.tooltip !== undefined) item.tooltip = n.tooltip;
  item.iconPath = new vscode.ThemeIcon(n.icon);
  item.contextValue = n.contextValue;
  if (n.command) item.command = { command: n.command.id, title: n.label, arguments: n.command.args };
  return item;
}

export class HubTreeProvider extends Disposable implements vscode.TreeDataProvider<HubNode> {
  private readonly changed = this._register(new vscode.EventEmitter<HubNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, HubNode>();
  /** local completion per repo+kind+iteration, computed lazily */
  private readonly local = new Map<string, LocalState>();
  /** getChildren calls not yet answered, and the changes that came meanwhile */
  private inFlight = 0;
  private pending: Set<HubNode | undefined> | undefined;

  constructor(
    private readonly hub: HubService,
    private readonly repos: () => string[],
    private readonly destFor: (repo: string, kind: 'resume' | 'hf') => string | undefined,
    /** the repo's checkpoint evaluations at a listing's commit (read once per listing) */
    private readonly evalsOf: HubEvalsOf = () => Promise.resolve(undefined),
  ) {
    super();
    // The whole tree is asked again, not the repo's node: only a refresh of the root cancels the
    // children fetches under way, and a folder asked for by its expansion while a refresh of its
    // repo asks for it too would register its children twice (and show none).
    this._register(
      hub.onDidChange((repo) => {
        if (repo) for (const k of [...this.local.keys()]) if (k.startsWith(`${repo}:`)) this.local.delete(k);
        this.fire(undefined);
      }),
    );
  }

  refresh(): void {
    this.local.clear();
    this.fire(undefined);
  }

  /**
   * A change that comes while children are being read (a folder's reads await the disk) is passed on
   * once they are answered: asked again meanwhile, the tree would get one parent's children twice and
   * refuse the second list's ids as already registered.
   */
  private fire(node: HubNode | undefined): void {
    if (this.inFlight > 0) (this.pending ??= new Set()).add(node);
    else this.changed.fire(node);
  }

  getTreeItem(n: HubNode): vscode.TreeItem {
    if (n.kind === 'repo') {
      const s = this.hub.state(n.repo);
      return toItem(hubRepoNode(n.repo, s.listing, s.error, s.loading));
    }
    return toItem(n);
  }

  getParent(n: HubNode): HubNode | undefined {
    if (n.kind === 'repo') return undefined;
    if (n.kind === 'folder' || n.kind === 'message') return this.nodes.get(`hub:${n.repo}`);
    if (n.kind === 'iteration') return this.nodes.get(`hub:${n.repo}:${n.folder}`);
    return undefined;
  }

  private keep<T extends HubNode>(ns: T[]): T[] {
    for (const n of ns) this.nodes.set(n.id, n);
    return ns;
  }

  async getChildren(n?: HubNode): Promise<HubNode[]> {
    this.inFlight++;
    try {
      return await this.children(n);
    } finally {
      if (--this.inFlight === 0 && this.pending) {
        const changes = this.pending;
        this.pending = undefined;
        for (const c of changes) this.changed.fire(c);
      }
    }
  }

  private async children(n?: HubNode): Promise<HubNode[]> {
    if (!n) {
      return this.keep(
        this.repos().map((r) => {
          const s = this.hub.state(r);
          if (!s.listing && !s.loading && !s.error) this.hub.startRefresh(r);
          return hubRepoNode(r, s.listing, s.error, s.loading);
        }),
      );
    }
    const s = this.hub.state(n.repo);
    if (n.kind === 'repo') return this.keep(hubRepoChildren(n.repo, s.listing, s.error, s.integrity));
    if (!s.listing) return [];
    if (n.kind === 'folder') {
      if (n.folder !== 'logs') {
        for (const it of s.listing[n.folder]) await this.computeLocal(n.repo, it);
      }
      const dest = n.folder === 'resume' ? this.destFor(n.repo, 'resume') : undefined;
      const localLatest = dest ? await currentLatest(dest) : null;
      const evals = n.folder === 'logs' ? undefined : await this.evalsOf(s.listing);
      return this.keep(
        hubFolderChildren(
          n.repo,
          s.listing,
          n.folder,
          (it) => this.local.get(`${n.repo}:${it.kind}:${it.iteration}`) ?? { state: 'absent' },
          localLatest,
          evals?.summary,
          s.integrity,
          evals?.verdict,
        ),
      );
    }
    if (n.kind === 'iteration') {
      const it = s.listing[n.folder].find((i) => i.iteration === n.iteration);
      return it ? this.keep(it.files.map((f) => hubFileNode(n.repo, f, `${it.dir}/`))) : [];
    }
    return [];
  }

  private async computeLocal(repo: string, it: IterationInfo): Promise<void> {
    const dest = this.destFor(repo, it.kind);
    if (!dest) return;
    const listing = this.hub.state(repo).listing;
    if (!listing) return;
    try {
      const c = await localCompletion(dest, planDownload(listing, it.kind, it.iteration, dest));
      const state: LocalState = c.complete
        ? { state: 'complete' }
        : c.bytes > 0
          ? { state: 'partial', percent: (100 * c.bytes) / Math.max(1, c.total) }
          : { state: 'absent' };
      // the local copy of a resume checkpoint, checked as `rlrb check` checks a destination (section 9)
      if (it.kind === 'resume' && state.state === 'complete') state.check = await localResumeView(join(dest, iterDirName(it.iteration)));
      this.local.set(`${repo}:${it.kind}:${it.iteration}`, state);
    } catch {
      this.local.set(`${repo}:${it.kind}:${it.iteration}`, { state: 'absent' });
    }
  }
}

async function localResumeView(dir: string): Promise<IntegrityView | undefined> {
  try {
    return resumeIntegrityView(await checkResumeFolder(dir), await filesOf(dir));
  } catch {
    return undefined;
  }
}

/** A run's row from its current state, its data problems included. */
function liveRunNode(l: LiveRun): RunNode {
  const loc = l.run.location;
  return runNode(
    loc.root,
    loc.name,
    l.run.credit,
    l.iterations().size,
    l.progress,
    loc.remote?.description,
    problemBadge(runProblems(l.run)),
  );
}

export class RunTreeProvider extends Disposable implements vscode.TreeDataProvider<RunNode> {
  private readonly changed = this._register(new vscode.EventEmitter<RunNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, RunNode>();
  private pending: NodeJS.Timeout | undefined;
  private dirty = new Set<string | undefined>();
  /** the runs followed while they train: their rows offer Stop Following instead of Follow */
  private followed: ReadonlySet<string> = new Set();

  constructor(private readonly runs: RunService) {
    super();
    this._register(toDisposable(() => clearTimeout(this.pending)));
    // refresh only the run that changed, at most a few times a second
    this._register(
      runs.onDidChange((e) => {
        this.dirty.add(e.kind === 'list' ? undefined : e.root);
        this.pending ??= setTimeout(() => {
          this.pending = undefined;
          const all = this.dirty.has(undefined);
          const roots = [...this.dirty];
          this.dirty.clear();
          if (all) {
            this.changed.fire(undefined);
            return;
          }
          for (const r of roots) this.changed.fire(r ? this.nodes.get(`run:${r}`) : undefined);
        }, 250);
      }),
    );
  }

  getTreeItem(n: RunNode): vscode.TreeItem {
    if (n.kind === 'run') {
      // the run's figures change as its log grows: describe it from its current state
      const live = this.runs.get(n.root);
      const item = toItem(live ? liveRunNode(live) : n);
      if (this.followed.has(n.root)) item.contextValue = 'localRunFollowed';
      return item;
    }
    return toItem(n);
  }

  /** The followed runs' roots; the rows whose state changed are drawn again. */
  setFollowed(roots: ReadonlySet<string>): void {
    const was = this.followed;
    this.followed = roots;
    for (const r of new Set([...was, ...roots])) if (was.has(r) !== roots.has(r)) this.changed.fire(this.nodes.get(`run:${r}`));
  }

  node(id: string): RunNode | undefined {
    return this.nodes.get(id);
  }

  getParent(n: RunNode): RunNode | undefined {
    const id = n.id;
    switch (n.kind) {
      case 'run':
        return undefined;
      case 'metrics':
      case 'report':
      case 'iterations':
      case 'schema':
      case 'evaluations':
        return this.nodes.get(`run:${n.root}`);
      case 'evalCheckpoint':
        return this.nodes.get(`run:${n.root}:evals`);
      case 'iteration':
        return this.nodes.get(`run:${n.root}:iterations`);
      case 'group':
        return this.nodes.get(`run:${n.root}:it:${n.iteration}`);
      case 'trajectory':
        return this.nodes.get(id.replace(/:r:\d+$/, ''));
    }
  }

  /** Builds the chain of nodes down to one trajectory, so that reveal can find it. */
  trajectoryNode(root: string, iteration: number, group: number, rollout: number): RunNode | undefined {
    const live = this.runs.get(root);
    const idx = live?.run.credit;
    if (!live || !idx) return undefined;
    this.keep([liveRunNode(live)]);
    this.keep(runChildren(root, true, live.run.metrics !== undefined, live.run.evals !== undefined));
    const s = live.iterations().get(iteration);
    if (!s) return undefined;
    this.keep(iterationNodes(root, live.iterations()));
    this.keep(groupNodes(root, idx, s));
    const rows = s.groups.get(group) ?? [];
    return this.keep(trajectoryNodes(root, idx, iteration, group, rows)).find((n) => n.kind === 'trajectory' && n.rollout === rollout);
  }

  private keep<T extends RunNode>(ns: T[]): T[] {
    for (const n of ns) this.nodes.set(n.id, n);
    return ns;
  }

  /** A checkpoint per evaluated iteration (an evaluation log read in place on the Hub is fetched when first opened). */
  private async evalChildren(root: string, live: LiveRun): Promise<RunNode[]> {
    const run = live.run;
    // a failed fetch leaves the node empty; the run's warnings (Problems, the report) say why
    if (run.location.remote?.evals && run.evals?.version === 0) await run.updateEvals().catch(() => undefined);
    const summary = run.evalSummary();
    return summary ? this.keep(evalCheckpointNodes(root, summary)) : [];
  }

  getChildren(n?: RunNode): RunNode[] | Promise<RunNode[]> {
    if (!n) return this.keep(this.runs.list().map(liveRunNode));
    const live = this.runs.get(n.root);
    if (!live) return [];
    const idx = live.run.credit;
    switch (n.kind) {
      case 'run':
        return this.keep(runChildren(n.root, idx !== undefined, live.run.metrics !== undefined, live.run.evals !== undefined));
      case 'evaluations':
        return this.evalChildren(n.root, live);
      case 'iterations':
        return this.keep(iterationNodes(n.root, live.iterations()));
      case 'iteration': {
        const s = live.iterations().get(n.iteration);
        return s && idx ? this.keep(groupNodes(n.root, idx, s)) : [];
      }
      case 'group': {
        const s = live.iterations().get(n.iteration);
        return s && idx ? this.keep(trajectoryNodes(n.root, idx, n.iteration, n.group, s.groups.get(n.group) ?? [])) : [];
      }
      default:
        return [];
    }
  }
}
