/** Activation: wires the services, trees, panels and commands. Nothing heavy runs here. */
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { SECTION, readSettings } from './settings';
import type { Settings } from './settings';
import { RunService } from './runs';
import { HubService } from './hub';
import { DownloadManager } from './downloads';
import type { DownloadRequest } from './downloads';
import { HubTreeProvider, RunTreeProvider } from './trees/trees';
import { Destinations } from './destinations';
import type { HubNode, RunNode } from './trees/treeModel';
import { PanelManager } from './panels/panels';
import type { QueryView } from '../shared/protocol';
import { repoWebUrl } from '../core/hub/model';
import { parseOpenTrajectoriesArgs, parseRunArg } from './commandArgs';
import type { RunReport } from '../core/report/report';

/** What `activate` returns: read-only facts for the in-host tests (never the token itself). */
export interface RlRunBrowserApi {
  runRoots(): string[];
  report(root: string): RunReport | undefined;
  hasStoredToken(): Promise<boolean>;
  settingsTau(): number;
}

export function activate(ctx: vscode.ExtensionContext): RlRunBrowserApi {
  let settings: Settings = load();
  function load(): Settings {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const s = readSettings((k) => cfg.get(k));
    if (s.problems.length > 0) void vscode.window.showWarningMessage(`RL Runs settings: ${s.problems.join('; ')}`);
    return s;
  }
  const out = vscode.window.createOutputChannel('RL Runs', { log: true });
  ctx.subscriptions.push(out);

  const destinations = new Destinations(
    ctx.globalState,
    () => settings.downloadDestination ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
  );
  const fetchedLogs = (): string[] => ctx.globalState.get<string[]>('fetchedLogs', []);

  const runs = new RunService(
    settings.index,
    () => [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), ...settings.runFolders],
    fetchedLogs,
  );
  const hub = new HubService(ctx.secrets, () => settings.endpoint);
  const downloads = new DownloadManager(hub, ctx.globalState, () => settings.downloadConcurrency);
  const hubTree = new HubTreeProvider(
    hub,
    () => settings.repos,
    (repo, kind) => destinations.path(repo, kind),
  );
  const runTree = new RunTreeProvider(runs);
  const hubView = vscode.window.createTreeView('rlRunBrowser.hub', { treeDataProvider: hubTree, showCollapseAll: true });
  const runView = vscode.window.createTreeView('rlRunBrowser.runs', { treeDataProvider: runTree, showCollapseAll: true });
  const revealRow = async (root: string, row: number): Promise<void> => {
    const idx = runs.get(root)?.run.credit;
    if (!idx) return;
    const r = idx.row(row);
    const node = runTree.trajectoryNode(root, r.iteration, r.group, r.rollout);
    if (node) await runView.reveal(node, { select: true, focus: true, expand: true });
  };
  const panels = new PanelManager(ctx, runs, revealRow);
  ctx.subscriptions.push(
    runs,
    hub,
    downloads,
    hubView,
    runView,
    panels,
    vscode.window.registerWebviewPanelSerializer('rlRunBrowser.metrics', panels),
    vscode.window.registerWebviewPanelSerializer('rlRunBrowser.trajectories', panels),
    vscode.window.registerWebviewPanelSerializer('rlRunBrowser.report', panels),
  );
  downloads.onDidFinish(() => hubTree.refresh());
  void runs.scan();
  ctx.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(() => void runs.scan()));

  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      const before = settings;
      settings = load();
      if (JSON.stringify(before.index) !== JSON.stringify(settings.index)) runs.setOptions(settings.index);
      else if (JSON.stringify(before.runFolders) !== JSON.stringify(settings.runFolders)) void runs.scan();
      if (before.endpoint !== settings.endpoint) for (const r of settings.repos) void hub.refresh(r);
      hubTree.refresh();
      setupAutoRefresh();
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const setupAutoRefresh = (): void => {
    if (timer) clearInterval(timer);
    timer =
      settings.autoRefreshHubMinutes > 0
        ? setInterval(() => {
            for (const r of settings.repos) void hub.refresh(r);
          }, settings.autoRefreshHubMinutes * 60_000)
        : undefined;
  };
  setupAutoRefresh();
  ctx.subscriptions.push({
    dispose: () => {
      if (timer) clearInterval(timer);
    },
  });

  /** The run a command acts on: its argument, the selection, or the only run. */
  const pickRun = async (arg: unknown): Promise<string | undefined> => {
    const fromArg = parseRunArg(arg);
    if (fromArg) {
      if (!runs.get(fromArg)) {
        await runs.scan();
        if (!runs.get(fromArg)) await runs.add(fromArg);
      }
      return runs.get(fromArg)?.run.location.root ?? fromArg;
    }
    await runs.scan();
    const list = runs.list();
    if (list.length === 0) {
      void vscode.window.showWarningMessage(
        'No RL run found: open a folder with logs/ws_credit_log.jsonl or ws_metrics.jsonl, or add one to rlRunBrowser.runFolders.',
      );
      return undefined;
    }
    if (list.length === 1) return list[0]!.run.location.root;
    const pick = await vscode.window.showQuickPick(
      list.map((l) => ({ label: l.run.location.name, description: l.run.location.root, root: l.run.location.root })),
      { placeHolder: 'Which run?' },
    );
    return pick?.root;
  };

  const askDest = async (repo: string, kind: 'resume' | 'hf' | 'logs'): Promise<string | undefined> => {
    const known = destinations.get(repo, kind);
    const remembered = known?.path;
    if (known) {
      const choice = await vscode.window.showQuickPick(
        [
          {
            label: `$(folder) ${known.path}`,
            description: known.remembered ? 'last used for this repo' : 'default',
            dest: known.path,
          },
          { label: '$(folder-opened) Choose another folder…', dest: undefined },
        ],
        {
          placeHolder:
            kind === 'resume'
              ? 'Where the launcher resumes from (iter_XXXXXXX/ and latest_checkpointed_iteration.txt go here)'
              : 'Download into',
        },
      );
      if (!choice) return undefined;
      if (choice.dest) {
        await destinations.remember(repo, kind, choice.dest);
        return choice.dest;
      }
    }
    const uris = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: kind === 'resume' ? "Download checkpoint here (the launcher's ckpt folder)" : 'Download here',
      ...(remembered ? { defaultUri: vscode.Uri.file(remembered) } : {}),
    });
    const picked = uris?.[0]?.fsPath;
    if (picked) await destinations.remember(repo, kind, picked);
    return picked;
  };

  const downloadFromNode = async (n: HubNode | undefined, kind: 'resume' | 'hf' | 'logs', destArg?: string): Promise<void> => {
    const repo =
      n?.repo ??
      (settings.repos.length === 1 ? settings.repos[0] : await vscode.window.showQuickPick(settings.repos, { placeHolder: 'Which repo?' }));
    if (!repo) return;
    let iteration: number | 'latest' | undefined = n?.kind === 'iteration' ? n.iteration : undefined;
    if (iteration === undefined && kind !== 'logs') {
      const l = hub.state(repo).listing;
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
    const dest = destArg ?? (await askDest(repo, kind));
    if (!dest) return;
    const req: DownloadRequest = { repo, kind, iteration, dest };
    const ok = await downloads.enqueue(req);
    if (ok && kind === 'logs') {
      await ctx.globalState.update('fetchedLogs', [...new Set([...fetchedLogs(), dest])]);
      const live = await runs.add(dest);
      await runs.scan();
      if (live) await panels.open('metrics', live.run.location.root);
    }
  };

  const reg = (id: string, fn: (...args: unknown[]) => unknown): void => {
    ctx.subscriptions.push(vscode.commands.registerCommand(id, fn));
  };
  reg('rlRunBrowser.refresh', async () => {
    hubTree.refresh();
    await Promise.all(settings.repos.map((r) => hub.refresh(r)));
    await runs.scan();
  });
  reg('rlRunBrowser.followRepo', async () => {
    const repo = await vscode.window.showInputBox({
      prompt: 'Hub model repo to follow (owner/name)',
      placeHolder: 'XunmeiLiu/openwebrl-ws-credit-beta0.4',
      validateInput: (v) => (/^[\w.-]+\/[\w.-]+$/.test(v.trim()) ? undefined : 'owner/name'),
    });
    if (!repo) return;
    const repos = [...new Set([...settings.repos, repo.trim()])];
    await vscode.workspace.getConfiguration(SECTION).update('repos', repos, vscode.ConfigurationTarget.Global);
  });
  reg('rlRunBrowser.unfollowRepo', async (n?: unknown) => {
    const node = n as HubNode | undefined;
    const repo = node?.repo ?? (await vscode.window.showQuickPick(settings.repos, { placeHolder: 'Stop following which repo?' }));
    if (!repo) return;
    await vscode.workspace.getConfiguration(SECTION).update(
      'repos',
      settings.repos.filter((r) => r !== repo),
      vscode.ConfigurationTarget.Global,
    );
    hub.forget(repo);
  });
  reg('rlRunBrowser.signIn', async (tokenArg?: unknown) => {
    const token =
      typeof tokenArg === 'string'
        ? tokenArg
        : await vscode.window.showInputBox({
            prompt: "Hugging Face access token (read is enough); checked with the Hub, kept in VS Code's secret storage",
            password: true,
            ignoreFocusOut: true,
            validateInput: (v) => (v.trim().startsWith('hf_') ? undefined : 'A Hugging Face token starts with hf_'),
          });
    if (!token) return false;
    try {
      const name = await hub.signIn(token.trim());
      void vscode.window.showInformationMessage(`Signed in to ${hub.endpoint()} as ${name}.`);
      for (const r of settings.repos) void hub.refresh(r);
      return true;
    } catch (e) {
      void vscode.window.showErrorMessage(`Sign-in failed: ${(e as Error).message}`);
      return false;
    }
  });
  reg('rlRunBrowser.signOut', async () => {
    await hub.signOut();
    void vscode.window.showInformationMessage('Signed out of Hugging Face (the stored token was removed).');
    for (const r of settings.repos) void hub.refresh(r);
  });
  reg('rlRunBrowser.downloadResume', (n?: unknown, dest?: unknown) =>
    downloadFromNode(n as HubNode | undefined, 'resume', typeof dest === 'string' ? dest : undefined),
  );
  reg('rlRunBrowser.downloadWeights', (n?: unknown, dest?: unknown) =>
    downloadFromNode(n as HubNode | undefined, 'hf', typeof dest === 'string' ? dest : undefined),
  );
  reg('rlRunBrowser.downloadLogs', (n?: unknown, dest?: unknown) =>
    downloadFromNode(n as HubNode | undefined, 'logs', typeof dest === 'string' ? dest : undefined),
  );
  reg('rlRunBrowser.cancelDownload', async () => {
    const running = downloads.running;
    if (running.length === 0) {
      void vscode.window.showInformationMessage('No download is running.');
      return;
    }
    const pick = running.length === 1 ? running[0] : await vscode.window.showQuickPick(running, { placeHolder: 'Cancel which download?' });
    if (pick) downloads.cancel(pick);
  });
  reg('rlRunBrowser.copyDownloadCommand', async (n?: unknown) => {
    const node = n as HubNode | undefined;
    if (!node) return;
    const kind = node.kind === 'iteration' ? node.folder : node.kind === 'folder' ? node.folder : 'logs';
    const it = node.kind === 'iteration' ? ` --iteration ${node.iteration}` : kind === 'resume' ? ' --iteration latest' : '';
    const dest = destinations.forCommand(node.repo, kind);
    const cmd = `npx rlrb download ${node.repo} --kind ${kind}${it} --dest ${JSON.stringify(dest)}${settings.endpoint ? ` --endpoint ${settings.endpoint}` : ''}`;
    await vscode.env.clipboard.writeText(cmd);
    void vscode.window.showInformationMessage(`Copied: ${cmd}`);
  });
  reg('rlRunBrowser.openOnHub', (n?: unknown) => {
    const node = n as HubNode | undefined;
    if (!node) return;
    const path =
      node.kind === 'iteration'
        ? `${node.folder}/iter_${String(node.iteration).padStart(7, '0')}`
        : node.kind === 'folder'
          ? node.folder
          : node.kind === 'file'
            ? dirname(node.path)
            : undefined;
    void vscode.env.openExternal(vscode.Uri.parse(repoWebUrl(hub.endpoint(), node.repo, path)));
  });
  reg('rlRunBrowser.openMetrics', async (arg?: unknown) => {
    const root = await pickRun(arg);
    if (root) await panels.open('metrics', root);
  });
  reg('rlRunBrowser.openReport', async (arg?: unknown) => {
    const root = await pickRun(arg);
    if (root) await panels.open('report', root);
  });
  reg('rlRunBrowser.openTrajectories', async (arg?: unknown) => {
    const a = parseOpenTrajectoriesArgs(arg);
    const root = await pickRun(a.root ?? (arg as RunNode | undefined)?.root);
    if (!root) return;
    const q: QueryView | undefined = a.filter ? { filter: a.filter, sort: a.sort ?? [] } : undefined;
    await panels.openTrajectories(root, q, a.label ?? null, a.select);
  });
  reg('rlRunBrowser.openTrajectory', async (arg?: unknown) => {
    const root = await pickRun(arg);
    if (!root) return;
    const text = await vscode.window.showInputBox({
      prompt: 'Trajectory: iteration group rollout',
      placeHolder: '12 7 3',
      validateInput: (v) => (/^\s*\d+[\s,/]+\d+[\s,/]+\d+\s*$/.test(v) ? undefined : 'three whole numbers: iteration, group, rollout'),
    });
    if (!text) return;
    const [iteration, group, rollout] = text
      .trim()
      .split(/[\s,/]+/)
      .map(Number) as [number, number, number];
    const idx = runs.get(root)?.run.credit;
    if (idx && idx.find(iteration, group, rollout) < 0) {
      void vscode.window.showWarningMessage(`No trajectory with iteration ${iteration}, group ${group}, rollout ${rollout} in ${root}.`);
      return;
    }
    await panels.openTrajectories(
      root,
      { filter: { iterationMin: iteration, iterationMax: iteration, group }, sort: [{ key: 'rollout' }] },
      null,
      { iteration, group, rollout },
    );
  });
  reg('rlRunBrowser.revealDownload', async (n?: unknown) => {
    const node = n as HubNode | undefined;
    const target = !node
      ? undefined
      : node.kind === 'iteration'
        ? destinations.iterationFolder(node.repo, node.folder, node.iteration)
        : destinations.path(node.repo, 'resume');
    if (!target) {
      void vscode.window.showInformationMessage('Nothing downloaded yet for this item.');
      return;
    }
    await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(target));
  });
  reg('rlRunBrowser.showSchemaCheck', async (arg?: unknown) => {
    const root = await pickRun(arg);
    const live = root ? runs.get(root) : undefined;
    if (!live?.run.credit) return;
    await live.run.update();
    const c = live.run.credit.schemaCheck();
    out.info(`Schema check of ${live.run.credit.path}: ${c.records} records, ${c.turns} turns`);
    for (const f of c.fields)
      out.info(
        `  ${f.level === 'turn' ? 'turn.' : ''}${f.field}${f.required ? ' (required)' : ''}: ${f.foundAs.length ? f.foundAs.map((x) => `${x.name}${x.alias ? ' [alias]' : ''} x${x.count}`).join(', ') : 'not found'}${f.missing > 0 && f.foundAs.length ? `; missing from ${f.missing}` : ''}`,
      );
    if (c.unknownTrajectoryKeys.length || c.unknownTurnKeys.length)
      out.info(
        `  extra fields (kept, shown in the detail view): ${[...c.unknownTrajectoryKeys.map((k) => k.name), ...c.unknownTurnKeys.map((k) => `turn.${k.name}`)].join(', ')}`,
      );
    for (const s of live.run.credit.skippedLines.slice(0, 50)) out.warn(`  ${live.run.credit.path}:${s.line}: skipped: ${s.message}`);
    out.show(true);
    if (c.notFound.length > 0)
      void vscode.window
        .showWarningMessage(
          `${live.run.location.name}: expected fields not found: ${c.notFound.join(', ')}. Map them with the setting rlRunBrowser.fieldMapping.`,
          'Open setting',
        )
        .then((x) => {
          if (x) void vscode.commands.executeCommand('workbench.action.openSettings', 'rlRunBrowser.fieldMapping');
        });
    return c;
  });

  const api: RlRunBrowserApi = {
    runRoots: () => runs.list().map((l) => l.run.location.root),
    report: (root) => runs.get(root)?.run.report()?.report,
    hasStoredToken: () => hub.hasStoredToken(),
    settingsTau: () => settings.index.credit.tau,
  };

  // downloads interrupted by a reload
  const pending = downloads.pending();
  if (pending.length > 0) {
    void vscode.window
      .showInformationMessage(
        `${pending.length} download(s) did not finish before the window closed. Resume from where they stopped?`,
        'Resume',
        'Forget',
      )
      .then(async (c) => {
        if (c === 'Resume') for (const r of pending) void downloads.enqueue(r);
        if (c === 'Forget') await ctx.globalState.update('rlRunBrowser.pendingDownloads', []);
      });
  }
  return api;
}

export function deactivate(): void {
  // disposables are in the context's subscriptions
}
