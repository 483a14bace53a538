/**
 * Downloads in the editor: a queue, a cancellable progress notification, a status bar
 * item while any runs, errors with a retry action, and an offer to resume after reload.
 */
import * as vscode from 'vscode';
import { planDownload, runDownload, currentLatest, DownloadError } from '../../core/hub/download';
import type { DownloadKind, DownloadOptions, DownloadPlan } from '../../core/hub/download';
import type { HubConnection, RunListing } from '../../core/hub/model';
import { checkBeforeLatest, gateResumeDownload } from '../../core/integrity/downloadGate';
import { HubError } from '../../core/hub/errors';
import type { HubService } from '../hub/hubService';
import { formatBytes, formatDuration, formatPercent, plural } from '../../shared/format';
import { Disposable } from '../dispose';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';
import { background } from '../background';
import type { FailureLog } from '../background';

export interface DownloadRequest {
  repo: string;
  kind: DownloadKind;
  iteration: number | 'latest' | undefined;
  dest: string;
  /** the user already agreed to change the destination's latest */
  setLatest?: boolean;
  /** leave the destination's latest file as it is (an older checkpoint fetched to evaluate) */
  keepLatest?: boolean;
}

/** A link that opens "Change Download Destination…" for this repo and kind, for a notification. */
function changeLink(r: DownloadRequest): string {
  return `[Change destination…](command:rlRunBrowser.changeDownloadDestination?${encodeURIComponent(JSON.stringify([r.repo, r.kind]))})`;
}

const PENDING_KEY = 'rlRunBrowser.pendingDownloads';

/** What the settings decide about a download. */
export interface DownloadTuning {
  concurrency: number;
  /** rlRunBrowser.stallTimeoutSeconds, in ms */
  stallTimeoutMs: number;
  /** the extension's global storage: the downloads' manifests live there, not in the checkpoint folder */
  stateDir: string;
}

/** The runDownload options taken from the settings, the one place they are handed over. */
export function tuningOptions(t: DownloadTuning): Pick<DownloadOptions, 'concurrency' | 'stallTimeoutMs' | 'stateDir'> {
  return { concurrency: t.concurrency, stallTimeoutMs: t.stallTimeoutMs, stateDir: t.stateDir };
}

export class DownloadManager extends Disposable {
  private queue: Promise<void> = Promise.resolve();
  private readonly active = new Map<string, AbortController>();
  private readonly status = this._register(vscode.window.createStatusBarItem('rlRunBrowser.downloads', vscode.StatusBarAlignment.Left, 10));
  private readonly finished = this._register(new vscode.EventEmitter<DownloadRequest & { ok: boolean }>());
  readonly onDidFinish = this.finished.event;

  constructor(
    private readonly hub: HubService,
    private readonly memento: vscode.Memento,
    private readonly tuning: () => DownloadTuning,
    /** where a failure nobody waits for goes (a download started from a notification) */
    private readonly log: FailureLog,
  ) {
    super();
    this.status.name = 'RL Runs downloads';
    this.status.command = 'rlRunBrowser.cancelDownload';
  }

  get running(): string[] {
    return [...this.active.keys()];
  }

  /** Queues a download; resolves when it has ended (well or not). */
  enqueue(r: DownloadRequest): Promise<boolean> {
    const key = `${r.repo}:${r.kind}:${r.iteration ?? 'latest'}:${r.dest}${r.keepLatest ? ':keep-latest' : ''}`;
    background(this.remember(r, true), this.log, `cannot note the download of ${r.repo} as pending`);
    const p = this.queue.then(() => this.run(r, key));
    this.queue = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  }

  cancel(key?: string): void {
    for (const [k, ac] of this.active) if (!key || k === key) ac.abort();
  }

  /** Downloads interrupted by a reload, to offer again. */
  pending(): DownloadRequest[] {
    return this.memento.get<DownloadRequest[]>(PENDING_KEY, []);
  }

  /** `enqueue` without waiting: its notifications say how it ends, a failure of its own goes to the log. */
  private start(r: DownloadRequest): void {
    background(this.enqueue(r), this.log, `cannot download from ${r.repo}`);
  }

  /** After a reload: offers to resume the downloads the last window did not finish. */
  offerResume(): void {
    const pending = this.pending();
    if (pending.length === 0) return;
    void vscode.window
      .showInformationMessage(
        `${plural(pending.length, 'download')} did not finish before the window closed. Resume from where they stopped?`,
        'Resume',
        'Forget',
      )
      .then(async (c) => {
        if (c === 'Resume') for (const r of pending) this.start(r);
        if (c === 'Forget') await this.memento.update(PENDING_KEY, []);
      });
  }

  private async remember(r: DownloadRequest, add: boolean): Promise<void> {
    const same = (x: DownloadRequest): boolean =>
      x.repo === r.repo && x.kind === r.kind && x.iteration === r.iteration && x.dest === r.dest && !x.keepLatest === !r.keepLatest;
    const list = this.pending().filter((x) => !same(x));
    await this.memento.update(PENDING_KEY, add ? [...list, r] : list);
  }

  /** docs/format.md section 9: an incomplete checkpoint is fetched only when the user says so, and then never named latest. */
  private async gate(listing: RunListing, plan: DownloadPlan, conn: HubConnection): Promise<DownloadPlan | undefined> {
    try {
      const g = await gateResumeDownload(listing, plan, conn, false);
      for (const w of g.warnings) void vscode.window.showWarningMessage(esc(w));
      return g.plan;
    } catch (e) {
      if (!(e instanceof DownloadError)) throw e;
      const c = await vscode.window.showWarningMessage(esc(e.message), { modal: true }, 'Download What Is There');
      return c === 'Download What Is There' ? (await gateResumeDownload(listing, plan, conn, true)).plan : undefined;
    }
  }

  private async run(r: DownloadRequest, key: string): Promise<boolean> {
    const ac = new AbortController();
    this.active.set(key, ac);
    this.updateStatus();
    try {
      const conn = await this.hub.connection(ac.signal);
      const listing =
        this.hub.state(r.repo).listing ??
        (await (async () => {
          await this.hub.refresh(r.repo);
          return this.hub.state(r.repo).listing;
        })());
      if (!listing) throw new DownloadError(this.hub.state(r.repo).error ?? `cannot list ${r.repo}`);
      const gated = await this.gate(listing, planDownload(listing, r.kind, r.iteration, r.dest), conn);
      if (!gated) {
        await this.remember(r, false);
        return false;
      }
      const plan = gated;
      let setLatest = r.setLatest === true;
      if (plan.latestFile && !setLatest && !r.keepLatest) {
        const cur = await currentLatest(r.dest);
        if (cur !== null && cur !== plan.latestFile.value) {
          const choice = await vscode.window.showWarningMessage(
            `${esc(r.dest)} names iteration ${cur} as latest. Download iteration ${plan.latestFile.value} and make it the one the ` +
              `launcher resumes from?`,
            { modal: true },
            'Download and set as latest',
          );
          if (choice !== 'Download and set as latest') {
            await this.remember(r, false);
            return false;
          }
          setLatest = true;
          // a retry or a resume of this request must not ask again
          r.setLatest = true;
          await this.remember(r, true);
        }
      }
      const what = r.kind === 'logs' ? 'logs' : `${r.kind} iteration ${plan.iteration}`;
      // the gate drops the latest file of an incomplete checkpoint fetched anyway, or of an unsafe .metadata
      const withheld = r.kind === 'resume' && !r.keepLatest && !plan.latestFile;
      const title =
        `${r.repo}: ${what}` +
        `${r.keepLatest ? ' (latest file left as it was)' : withheld ? ' (latest file not written: see the warning)' : ''}`;
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Downloading ${esc(title)} into ${esc(r.dest)} · ${changeLink(r)}`,
          cancellable: true,
        },
        async (progress, token) => {
          const onCancel = token.onCancellationRequested(() => ac.abort());
          let reported = 0;
          try {
            await runDownload(plan, {
              ...conn,
              ...tuningOptions(this.tuning()),
              latestConflict: setLatest ? 'overwrite' : 'fail',
              ...(r.keepLatest ? { keepLatest: true } : {}),
              beforeLatest: async (d, n) => {
                const b = await checkBeforeLatest(d, n);
                if (b.warning !== undefined) void vscode.window.showWarningMessage(esc(b.warning));
                return b.write;
              },
              onProgress: (p) => {
                const pct = p.bytesTotal > 0 ? (100 * p.bytesDone) / p.bytesTotal : 100;
                const files = p.current
                  .map((f) => f.split('/').pop())
                  .slice(0, 2)
                  .join(', ');
                progress.report({
                  increment: pct - reported,
                  message: esc(
                    `${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)} · ` +
                      `${formatBytes(p.rate)}/s over ${p.connections} connection${p.connections === 1 ? '' : 's'} · ETA ` +
                      `${p.etaSeconds === null ? '?' : formatDuration(p.etaSeconds)}${files ? ` · ${files}` : ''}`,
                  ),
                });
                reported = pct;
                this.status.text = `$(cloud-download) ${formatPercent(pct / 100, 0)} ${title}`;
              },
            });
          } finally {
            onCancel.dispose();
          }
        },
      );
      await this.remember(r, false);
      this.finished.fire({ ...r, ok: true });
      void vscode.window
        .showInformationMessage(`Downloaded and verified ${esc(title)} into ${esc(r.dest)}`, 'Reveal', 'Change Destination…')
        .then((c) => {
          if (c === 'Reveal') void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(r.dest));
          if (c === 'Change Destination…') void vscode.commands.executeCommand('rlRunBrowser.changeDownloadDestination', r.repo, r.kind);
        });
      return true;
    } catch (e) {
      this.finished.fire({ ...r, ok: false });
      if (e instanceof HubError && e.kind === 'cancelled') {
        void vscode.window
          .showInformationMessage('Download cancelled. The bytes on disk are kept; run it again to finish.', 'Resume')
          .then((c) => {
            if (c) this.start(r);
          });
        return false;
      }
      const msg = e instanceof DownloadError || e instanceof HubError ? e.message : errorMessage(e);
      void vscode.window.showErrorMessage(`Download failed: ${esc(msg)}`, 'Retry').then((c) => {
        if (c) this.start({ ...r });
      });
      return false;
    } finally {
      this.active.delete(key);
      this.updateStatus();
    }
  }

  private updateStatus(): void {
    if (this.active.size === 0) {
      this.status.hide();
      return;
    }
    this.status.text = `$(cloud-download) ${this.active.size} download${this.active.size > 1 ? 's' : ''}`;
    this.status.tooltip = `RL Runs: ${[...this.active.keys()].join('\n')}\nClick to cancel`;
    this.status.show();
  }

  override dispose(): void {
    this.cancel();
    super.dispose();
  }
}
