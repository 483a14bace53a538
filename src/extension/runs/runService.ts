/** The local runs: found in the workspace, the run folders and the downloads; followed live. */
import type { IndexStore } from '../../core/log/indexStore';
import * as vscode from 'vscode';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Run } from '../../core/run/run';
import { locateRun } from '../../core/run/runLocator';
import type { IndexOptions } from '../../core/log/creditIndex';
import { followFile } from '../../core/log/watch';
import { Coalesced } from '../../core/run/coalesced';
import { summarizeIterations } from '../../core/run/iterationSummary';
import type { IterationSummary } from '../../core/run/iterationSummary';
import { Disposable, disposeAll, toDisposable } from '../dispose';
import type { IDisposable } from '../dispose';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';
import { background } from '../background';
import type { FailureLog } from '../background';

export interface LiveRun {
  run: Run;
  progress: number | undefined;
  iterations(): Map<number, IterationSummary>;
}

export class RunService extends Disposable {
  private readonly runs = new Map<string, LiveRun>();
  private readonly watchers = new Map<string, IDisposable[]>();
  /** runs whose logs are not local files (a Hub repo's logs read in place): kept across scans, opened again on new options */
  private readonly remotes = new Map<string, (o: IndexOptions) => Promise<Run>>();
  private readonly changed = this._register(new vscode.EventEmitter<{ root: string | undefined; kind: 'list' | 'append' | 'reset' }>());
  readonly onDidChange = this.changed.event;
  private readonly scans = new Coalesced(() => this.doScan());

  constructor(
    private options: IndexOptions,
    private folders: () => string[],
    private extra: () => string[],
    /** saved indexes in the extension's global storage: a second open reads them instead of the log */
    private readonly store?: IndexStore,
    /** the threads a first read of a large log uses (the setting, 0 = every core the load leaves free), asked at each open */
    private readonly threads: () => number = () => 1,
    /** where a failure nobody waits for goes (a scan, a followed log's new lines) */
    private readonly log: FailureLog = (line) => console.error(line),
  ) {
    super();
    this._register(toDisposable(() => this.dropAll()));
  }

  list(): LiveRun[] {
    return [...this.runs.values()].sort((a, b) => a.run.location.name.localeCompare(b.run.location.name));
  }

  get(root: string): LiveRun | undefined {
    return this.runs.get(root);
  }

  setOptions(o: IndexOptions): void {
    this.options = o;
    this.dropAll();
    this.startScan();
    for (const open of this.remotes.values()) background(this.addRemote(open), this.log, 'cannot open a run read in place again');
  }

  get indexOptions(): IndexOptions {
    return this.options;
  }

  /** `scan` without waiting: the trees show what it found, a failure goes to the log. */
  startScan(): void {
    background(this.scan(), this.log, 'cannot look for runs');
  }

  /** Adds a run whose logs are elsewhere (already read by `open`); it stays in the list until the window closes. */
  async addRemote(open: (o: IndexOptions) => Promise<Run>): Promise<LiveRun> {
    const run = await open(this.options);
    const root = run.location.root;
    this.remotes.set(root, open);
    this.drop(root);
    const live = this.track(run, false);
    live.progress = 1;
    this.changed.fire({ root: undefined, kind: 'list' });
    return live;
  }

  /**
   * Finds runs: each folder itself, its logs/, and its first-level subfolders (dot folders
   * skipped). Asked while a scan runs, it scans once more after it (the running one may
   * have passed a folder or an option that changed since).
   */
  scan(): Promise<void> {
    return this.scans.run();
  }

  /** The runs as the last scan found them (the first scan started if none ran): a command's pick never rescans. */
  scanned(): Promise<void> {
    return this.scans.settled();
  }

  private async doScan(): Promise<void> {
    const candidates = new Set<string>();
    for (const f of [...this.folders(), ...this.extra()]) {
      candidates.add(f);
      try {
        for (const e of await readdir(f, { withFileTypes: true })) {
          if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' && e.name !== 'logs') candidates.add(join(f, e.name));
        }
      } catch {
        /* folder gone */
      }
    }
    const found = new Set<string>();
    for (const c of candidates) {
      // a folder whose log is refused (a FIFO or a device in its place) is not listed
      const loc = await locateRun(c).catch(() => undefined);
      if (!loc || found.has(loc.root)) continue;
      found.add(loc.root);
      if (!this.runs.has(loc.root)) await this.add(loc.root);
    }
    for (const root of [...this.runs.keys()]) if (!found.has(root) && !this.remotes.has(root)) this.drop(root);
    this.changed.fire({ root: undefined, kind: 'list' });
  }

  /**
   * The run at `root`: the one open, else the one a scan finds, else the folder added
   * (undefined: no log there). `settled`: wait for the last scan instead of starting one
   * (a command's pick never rescans).
   */
  async ensure(root: string, scan: 'scan' | 'settled' = 'scan'): Promise<LiveRun | undefined> {
    if (this.runs.has(root)) return this.runs.get(root);
    await (scan === 'scan' ? this.scan() : this.scanned());
    return this.runs.get(root) ?? (await this.add(root));
  }

  /** Adds a run folder (a download of logs, say) and indexes it. */
  async add(path: string): Promise<LiveRun | undefined> {
    const threads = { threads: this.threads() };
    const run = await Run.open(path, this.options, this.store ? { store: this.store, threads } : { threads });
    if (!run) return undefined;
    const existing = this.runs.get(run.location.root);
    if (existing) return existing;
    const live = this.track(run, true);
    void run.update().then(
      () => {
        live.progress = 1;
        this.changed.fire({ root: run.location.root, kind: 'append' });
      },
      (e: unknown) => {
        void vscode.window.showErrorMessage(`RL Runs: cannot read ${esc(run.location.root)}: ${esc(errorMessage(e))}`);
      },
    );
    return live;
  }

  /** Lists a run and passes its changes on; `follow`: watch its local files. */
  private track(run: Run, follow: boolean): LiveRun {
    let cache: { size: number; value: Map<number, IterationSummary> } | undefined;
    const live: LiveRun = {
      run,
      progress: 0,
      iterations: () => {
        const idx = run.credit;
        if (!idx) return new Map();
        if (!cache || cache.size !== idx.size) cache = { size: idx.size, value: summarizeIterations(idx) };
        return cache.value;
      },
    };
    this.runs.set(run.location.root, live);
    const root = run.location.root;
    const subs: IDisposable[] = [];
    if (run.credit) {
      subs.push(
        run.credit.onProgress((p) => {
          live.progress = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1;
        }),
      );
    }
    // the three logs alike: a change reaches the panels; followed, new lines are read as they come
    for (const log of [run.credit, run.metrics, run.evals]) {
      if (!log) continue;
      subs.push(log.onDidChange((e) => this.changed.fire({ root, kind: e.kind })));
      if (follow) subs.push(followFile(log.path, () => background(log.update(), this.log, `cannot read the new lines of ${log.path}`)));
    }
    this.watchers.set(root, subs);
    return live;
  }

  private drop(root: string): void {
    disposeAll(this.watchers.get(root) ?? []);
    this.watchers.delete(root);
    this.runs.delete(root);
  }

  private dropAll(): void {
    for (const root of [...this.runs.keys()]) this.drop(root);
  }
}
