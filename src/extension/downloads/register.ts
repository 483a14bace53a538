/** Downloads from the Hub tree: checkpoints, weights, logs; cancel; the same as a terminal command. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { parseHubNode } from '../commandArgs';
import type { HubNodeArg } from '../commandArgs';
import type { DestKind } from './destinations';
import type { DownloadRequest } from './downloadManager';
import { askDestination, chooseFolder } from './askDestination';
import { downloadCommandLine } from '../shellCommand';
import { registerCommands } from '../commands/registry';
import { DOWNLOAD_COMMANDS } from '../commands/ids';
import { escapeNotification as esc } from '../text';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  const download =
    (kind: DestKind, keepLatest = false) =>
    (n?: unknown, dest?: unknown): Promise<void> =>
      downloadFromNode(s, parseHubNode(n), kind, typeof dest === 'string' ? dest : undefined, keepLatest);
  registerCommands(ctx, DOWNLOAD_COMMANDS, {
    'rlRunBrowser.downloadResume': download('resume'),
    'rlRunBrowser.downloadWeights': download('hf'),
    'rlRunBrowser.downloadLogs': download('logs'),
    'rlRunBrowser.downloadResumeKeepLatest': download('resume', true),
    'rlRunBrowser.changeDownloadDestination': (n?: unknown, kindArg?: unknown) => changeDestination(s, n, kindArg),
    'rlRunBrowser.cancelDownload': async () => {
      const running = s.downloads.running;
      if (running.length === 0) {
        void vscode.window.showInformationMessage('No download is running.');
        return;
      }
      const pick =
        running.length === 1 ? running[0] : await vscode.window.showQuickPick(running, { placeHolder: 'Cancel which download?' });
      if (pick) s.downloads.cancel(pick);
    },
    'rlRunBrowser.copyDownloadCommand': async (n?: unknown) => {
      const node = parseHubNode(n);
      if (!node) return;
      const kind = node.kind === 'iteration' ? node.folder : node.kind === 'folder' ? node.folder : 'logs';
      const iteration = node.kind === 'iteration' ? node.iteration : kind === 'resume' ? 'latest' : undefined;
      const cmd = downloadCommandLine({
        repo: node.repo,
        kind,
        ...(iteration !== undefined ? { iteration } : {}),
        dest: s.destinations.forCommand(node.repo, kind),
        endpoint: s.settings().endpoint,
      });
      await vscode.env.clipboard.writeText(cmd);
      void vscode.window.showInformationMessage(`Copied: ${esc(cmd)}`);
    },
    'rlRunBrowser.revealDownload': async (n?: unknown) => {
      const node = parseHubNode(n);
      const target = !node
        ? undefined
        : node.kind === 'iteration'
          ? s.destinations.iterationFolder(node.repo, node.folder, node.iteration)
          : s.destinations.path(node.repo, 'resume');
      if (!target) {
        void vscode.window.showInformationMessage('Nothing downloaded yet for this item.');
        return;
      }
      await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(target));
    },
  });
}

/** Asks what is missing (repo, iteration, folder), downloads, and opens fetched logs. */
async function downloadFromNode(
  s: Services,
  n: HubNodeArg | undefined,
  kind: DestKind,
  destArg?: string,
  keepLatest = false,
): Promise<void> {
  const repos = s.settings().repos;
  const repo = n?.repo ?? (repos.length === 1 ? repos[0] : await vscode.window.showQuickPick(repos, { placeHolder: 'Which repo?' }));
  if (!repo) return;
  let iteration: number | 'latest' | undefined = n?.kind === 'iteration' ? n.iteration : undefined;
  if (iteration === undefined && kind !== 'logs') {
    const l = s.hub.state(repo).listing;
    const its = kind === 'resume' ? l?.resume : l?.hf;
    const pick =
      its &&
      (await vscode.window.showQuickPick(
        its
          .slice()
          .reverse()
          .map((i) => ({ label: `${i.dir}${i.isLatest ? ' ★' : ''}`, it: i.iteration })),
        { placeHolder: `Which ${kind} iteration?` },
      ));
    if (!pick) return;
    iteration = pick.it;
  }
  if (kind === 'logs') {
    const root = await downloadLogsRun(s, repo, destArg);
    if (root) await s.panels.open('metrics', root);
    return;
  }
  const dest = destArg ?? (await askDestination(s.destinations, repo, kind));
  if (!dest) return;
  const req: DownloadRequest = { repo, kind, iteration, dest, ...(keepLatest ? { keepLatest } : {}) };
  await s.downloads.enqueue(req);
}

/**
 * Downloads a repo's logs (asking where, with the cancellable progress of every download)
 * and opens the folder as a run: its root, or undefined.
 */
export async function downloadLogsRun(s: Services, repo: string, destArg?: string): Promise<string | undefined> {
  const dest = destArg ?? (await askDestination(s.destinations, repo, 'logs'));
  if (!dest) return undefined;
  const ok = await s.downloads.enqueue({ repo, kind: 'logs', iteration: undefined, dest });
  if (!ok) return undefined;
  await s.destinations.addFetchedLogs(dest);
  const live = await s.runs.add(dest);
  await s.runs.scan();
  return live?.run.location.root;
}

const KINDS: readonly DestKind[] = ['resume', 'hf', 'logs'];

/**
 * Picks another folder for a repo's next downloads of one kind. From the tree (a node),
 * the palette (asks), or the progress notification's link (`repo`, `kind` as strings).
 */
async function changeDestination(s: Services, n: unknown, kindArg: unknown): Promise<void> {
  const node = parseHubNode(n);
  const repos = s.settings().repos;
  const repo =
    node?.repo ??
    (typeof n === 'string' && repos.includes(n) ? n : undefined) ??
    (repos.length === 1 ? repos[0] : await vscode.window.showQuickPick(repos, { placeHolder: 'Downloads from which repo?' }));
  if (!repo) return;
  const fromNode = node?.kind === 'iteration' || node?.kind === 'folder' ? node.folder : undefined;
  const kind = fromNode ?? KINDS.find((k) => k === kindArg) ?? (await pickKind(s, repo));
  if (!kind) return;
  const picked = await chooseFolder(s.destinations, repo, kind);
  if (!picked) return;
  s.trees.hub.refresh();
  void vscode.window.showInformationMessage(`The next ${kind} downloads from ${esc(repo)} go to ${esc(picked)}`);
}

async function pickKind(s: Services, repo: string): Promise<DestKind | undefined> {
  const items: (vscode.QuickPickItem & { destKind: DestKind })[] = KINDS.map((k) => ({
    label: k,
    description: s.destinations.path(repo, k) ?? 'not chosen yet',
    destKind: k,
  }));
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Which downloads: resume checkpoints, hf weights or logs?' });
  return pick?.destKind;
}
