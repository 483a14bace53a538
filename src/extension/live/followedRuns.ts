/**
 * The runs the user follows in the editor: each polled every `rlRunBrowser.followIntervalSeconds`,
 * its events (the core's, as `rlrb watch` prints them) shown as a status-bar item and
 * notifications. The run list keeps the logs read (it follows local files, and a run read in place
 * follows the repo's commits), so a poll here reads nothing new itself: it compares the indexes'
 * versions and the checkpoint folders, and computes events only when they changed. When the run
 * list reads new lines of a followed run, that run is polled at once (the read is already paid for);
 * the interval is what finds a checkpoint that arrives alone, and a run gone quiet.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { Follower } from '../../core/live/follower';
import { emptyCursor } from '../../core/live/liveCursor';
import { observedLiveSource } from '../../core/live/liveSource';
import { folderIntegrityProbe, hubIntegrityProbe } from '../../core/live/integrityProbe';
import { localCheckpointFolders } from '../../core/live/checkpoints';
import type { CheckpointFolder, CheckpointProbe } from '../../core/live/checkpoints';
import type { AlertCheck } from '../../core/live/liveEvent';
import type { Run } from '../../core/run/run';
import { errorMessage } from '../../core/errorMessage';
import { MetricsPanel } from '../metrics/metricsPanel';
import { alertRows, applyEvents, followInterval, initialFollowState, mutedChecks, notificationOf, statusView } from './liveViews';
import type { FollowState, OpenTarget } from './liveViews';
import { background } from '../background';

interface Followed {
  follower: Follower;
  state: FollowState;
  item: vscode.StatusBarItem;
  timer: NodeJS.Timeout | undefined;
  /** a poll is under way; `again`: the run changed meanwhile, poll once more soon after */
  polling: boolean;
  again: boolean;
  /** polls until the run's first read is done set the state and tell nothing: the run's past is not news */
  first: boolean;
  /** whether the run list has read the run once */
  read: () => boolean;
}

const STORED = 'rlRunBrowser.followedRuns';
/** After the run list read new lines: a burst of appends is one poll, and a run being indexed is not recomputed on every block */
const SOON_MS = 1500;

export class FollowedRuns implements vscode.Disposable {
  private readonly followed = new Map<string, Followed>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly runsChanged: vscode.Disposable;

  constructor(
    private readonly s: Services,
    private readonly memento: vscode.Memento,
  ) {
    this.runsChanged = s.runs.onDidChange((e) => {
      if (e.root !== undefined) this.soon(e.root);
    });
  }

  /** A poll of `root` shortly (when followed): its logs changed. */
  private soon(root: string): void {
    const f = this.followed.get(root);
    if (!f) return;
    if (f.polling) {
      f.again = true;
      return;
    }
    clearTimeout(f.timer);
    f.timer = setTimeout(() => this.startPoll(root, f), SOON_MS);
  }

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

  /**
   * Section 9's checker: on disk for a local run; for a run read in place, the Hub's listing at the
   * tree's commit, each iteration's `.metadata` or safetensors headers read once per content.
   */
  private probe(run: Run): CheckpointProbe {
    const loc = run.location;
    if (!loc.remote) return folderIntegrityProbe(loc.root);
    const repo = loc.name;
    return hubIntegrityProbe(
      repo,
      () => this.s.hub.state(repo).listing?.commit ?? 'main',
      () => this.s.hub.connection(),
    );
  }

  /** The checkpoint folders of a run (what its head compares): a local folder's, or the Hub tree's listing of a run read in place. */
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
    item.command = { title: 'Show the Open Alerts', command: 'rlRunBrowser.showFollowedRunAlerts', arguments: [root] };
    const f: Followed = {
      follower: new Follower(observedLiveSource(run, this.folders(run), this.probe(run)), emptyCursor()),
      state: initialFollowState(run.location.name),
      item,
      timer: undefined,
      polling: false,
      again: false,
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
    clearTimeout(f.timer);
    f.polling = true;
    const muted = this.muted();
    try {
      const { events } = await f.follower.poll();
      f.state = applyEvents(f.state, events, muted);
      if (!f.first) for (const e of events) this.notify(root, notificationOf(e, f.state.name, muted));
      f.first &&= !f.read();
    } catch (e) {
      f.state = { ...f.state, error: errorMessage(e) };
    }
    f.polling = false;
    this.show(f);
    const next = f.again ? SOON_MS : this.interval() * 1000;
    f.again = false;
    if (this.followed.get(root) === f) f.timer = setTimeout(() => this.startPoll(root, f), next);
  }

  /**
   * The status-bar item's click: the run's open alerts (and its stale note) in a quick pick, each
   * opening what lies behind it; the run report when none is open.
   */
  async showAlerts(root: string): Promise<void> {
    const f = this.followed.get(root);
    const rows = f ? alertRows(f.state) : [];
    if (rows.length === 0) {
      await this.s.panels.open('report', root);
      return;
    }
    const items = [...rows, { label: '$(checklist) Open the Run Report', target: undefined }];
    const pick = await vscode.window.showQuickPick(items, {
      title: `${f!.state.name}: open alerts`,
      placeHolder: 'Open what lies behind an alert',
    });
    if (!pick) return;
    if (pick.target) await this.open(root, pick.target);
    else await this.s.panels.open('report', root);
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
    this.runsChanged.dispose();
    for (const f of this.followed.values()) {
      clearTimeout(f.timer);
      f.item.dispose();
    }
    this.followed.clear();
    this.changed.dispose();
  }
}
