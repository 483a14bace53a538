/**
 * The runs the user follows in the editor: each polled every `rlRunBrowser.followIntervalSeconds`,
 * its events (the core's, as `rlrb watch` prints them) shown as a status-bar item and
 * notifications. The run list keeps the logs read (it follows local files, and a run read in place
 * follows the repo's commits), so a poll here reads nothing new itself: it compares the indexes'
 * versions and the checkpoint folders, and computes events only when they changed.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { Follower } from '../../core/live/follower';
import { emptyCursor } from '../../core/live/liveCursor';
import { observedLiveSource } from '../../core/live/liveSource';
import { folderIntegrityProbe } from '../../core/live/integrityProbe';
import { localCheckpointFolders } from '../../core/live/checkpoints';
import type { CheckpointFolder, CheckpointProbe } from '../../core/live/checkpoints';
import type { AlertCheck } from '../../core/live/liveEvent';
import type { Run } from '../../core/run/run';
import { errorMessage } from '../../core/errorMessage';
import { MetricsPanel } from '../metrics/metricsPanel';
import { applyEvents, followInterval, initialFollowState, mutedChecks, notificationOf, statusView } from './liveViews';
import type { FollowState, OpenTarget } from './liveViews';
import { background } from '../background';

interface Followed {
  follower: Follower;
  state: FollowState;
  item: vscode.StatusBarItem;
  timer: NodeJS.Timeout | undefined;
  /** polls until the run's first read is done set the state and tell nothing: the run's past is not news */
  first: boolean;
  /** whether the run list has read the run once */
  read: () => boolean;
}

const STORED = 'rlRunBrowser.followedRuns';

export class FollowedRuns implements vscode.Disposable {
  private readonly followed = new Map<string, Followed>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly s: Services,
    private readonly memento: vscode.Memento,
  ) {}

  /** The followed runs' roots. */
  roots(): string[] {
    return [...this.followed.keys()];
  }

  has(root: string): boolean {
    return this.followed.has(root);
  }

  /** Settings read at each use: the interval and the muted checks. */
  private interval(): number {
    return followInterval(vscode.workspace.getConfiguration('rlRunBrowser').get<unknown>('followIntervalSeconds'));
  }

  private muted(): Set<AlertCheck> {
    const { muted, problems } = mutedChecks(vscode.workspace.getConfiguration('rlRunBrowser').get<unknown>('mutedChecks'));
    for (const p of problems) this.s.out.warn(p);
    return muted;
  }

  /** The checkpoint folders of a run: a local folder's, or the Hub tree's listing of a run read in place. */
  /** Section 9 on disk for a local run; a run read in place keeps the stand-in until the tree's checks are shared with it. */
  private probe(run: Run): ((folders: () => Promise<CheckpointFolder[]>) => CheckpointProbe) | undefined {
    return run.location.remote ? undefined : () => folderIntegrityProbe(run.location.root);
  }

  private folders(run: Run): () => Promise<CheckpointFolder[]> {
    if (!run.location.remote) return () => localCheckpointFolders(run.location.root);
    return () => {
      const l = this.s.hub.state(run.location.name).listing;
      return Promise.resolve(l ? [...l.resume, ...l.hf].map((i) => ({ kind: i.kind, iteration: i.iteration, files: i.files })) : []);
    };
  }

  async follow(root: string): Promise<void> {
    if (this.followed.has(root)) return;
    const live = await this.s.runs.ensure(root, 'settled');
    if (!live) {
      void vscode.window.showWarningMessage(`No RL run at ${root}: nothing to follow.`);
      return;
    }
    const run = live.run;
    const item = vscode.window.createStatusBarItem(`rlRunBrowser.follow.${root}`, vscode.StatusBarAlignment.Left, 10);
    item.name = `RL run ${run.location.name}`;
    item.command = { title: 'Open Run Report', command: 'rlRunBrowser.openReport', arguments: [root] };
    const f: Followed = {
      follower: new Follower(observedLiveSource(run, this.folders(run), this.probe(run)), emptyCursor()),
      state: initialFollowState(run.location.name),
      item,
      timer: undefined,
      first: true,
      read: () => (live.progress ?? 0) >= 1,
    };
    this.followed.set(root, f);
    this.show(f);
    item.show();
    await this.store();
    this.changed.fire();
    await this.poll(root, f);
  }

  async unfollow(root: string): Promise<void> {
    const f = this.followed.get(root);
    if (!f) return;
    clearTimeout(f.timer);
    f.item.dispose();
    this.followed.delete(root);
    await this.store();
    this.changed.fire();
  }

  /** Follows again the runs followed before the window reloaded (a stored value is untrusted input). */
  async restore(): Promise<void> {
    const v = this.memento.get<unknown>(STORED);
    if (!Array.isArray(v)) return;
    for (const root of v.slice(0, 50)) if (typeof root === 'string') await this.follow(root);
  }

  private store(): Thenable<void> {
    return this.memento.update(STORED, this.roots());
  }

  private show(f: Followed): void {
    const v = statusView(f.state);
    f.item.text = v.text;
    f.item.tooltip = v.tooltip;
    f.item.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  /** The next `poll`, from a timer: a failure goes to the output channel. */
  private startPoll(root: string, f: Followed): void {
    background(this.poll(root, f), (line) => this.s.out.error(line), `${f.state.name}: cannot look for new lines`);
  }

  private async poll(root: string, f: Followed): Promise<void> {
    if (this.followed.get(root) !== f) return;
    const muted = this.muted();
    try {
      const { events } = await f.follower.poll();
      f.state = applyEvents(f.state, events, muted);
      if (!f.first) for (const e of events) this.notify(root, notificationOf(e, f.state.name, muted));
      f.first &&= !f.read();
    } catch (e) {
      f.state = { ...f.state, error: errorMessage(e) };
    }
    this.show(f);
    if (this.followed.get(root) === f) f.timer = setTimeout(() => this.startPoll(root, f), this.interval() * 1000);
  }

  private notify(root: string, n: ReturnType<typeof notificationOf>): void {
    if (!n) return;
    const show = n.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const actions = n.open ? ['Open'] : [];
    const target = n.open;
    void show(n.message, ...actions).then((pick) => (pick === 'Open' && target ? this.open(root, target) : undefined));
  }

  private async open(root: string, t: OpenTarget): Promise<void> {
    if (t.kind === 'trajectories') {
      const filter = { iterationMin: t.iteration, iterationMax: t.iteration, ...(t.flags !== undefined ? { flags: t.flags } : {}) };
      return this.s.panels.openTrajectories(root, { filter, sort: [] }, t.label);
    }
    if (t.kind === 'evaluation')
      return this.s.panels.openTrajectories(
        root,
        { filter: { evalIteration: t.iteration }, sort: [] },
        `evaluation, iteration ${t.iteration}`,
      );
    const panel = await this.s.panels.open('metrics', root);
    const names = this.s.runs.get(root)?.run.metrics?.getTable().names ?? [];
    if (panel instanceof MetricsPanel && names.includes(t.metric)) panel.focusMetric(t.metric);
  }

  dispose(): void {
    for (const f of this.followed.values()) {
      clearTimeout(f.timer);
      f.item.dispose();
    }
    this.followed.clear();
    this.changed.dispose();
  }
}
