/** The services every feature shares, built once at activation and disposed with the extension. */
import * as vscode from 'vscode';
import { RunService } from './runs/runService';
import { HubService } from './hub/hubService';
import { DownloadManager } from './downloads/downloadManager';
import { Trees } from './trees/treeViews';
import { PanelManager } from './panels/panelManager';
import { Destinations } from './downloads/destinations';
import type { Configuration } from './configuration';
import type { Services } from './services';
import type { Settings } from './settings';
import { IndexStore } from '../core/log/indexStore';
import { hubEvals } from './trees/hubEvals';
import { readBaseline } from './runs/baseline';
import { rangeCacheOf } from './inPlace/register';

export function createServices(ctx: vscode.ExtensionContext, config: Configuration): Services {
  const settings = (): Settings => config.current;
  const out = vscode.window.createOutputChannel('RL Runs', { log: true });
  const failed = (line: string): void => out.error(line);
  const destinations = new Destinations(
    ctx.globalState,
    () => settings().downloadDestination ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
  );
  const indexStore = new IndexStore(vscode.Uri.joinPath(ctx.globalStorageUri, 'index').fsPath, {
    maxBytes: () => config.engine.cacheBytes,
  });
  const runs = new RunService(
    settings().index,
    () => [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), ...settings().runFolders],
    () => destinations.fetchedLogs(),
    indexStore,
    () => config.engine.threads,
    failed,
  );
  const hub = new HubService(
    ctx.secrets,
    () => settings().endpoint,
    () => settings().stallTimeoutSeconds * 1000,
    failed,
  );
  const downloads = new DownloadManager(
    hub,
    ctx.globalState,
    () => ({
      concurrency: settings().downloadConcurrency,
      stallTimeoutMs: settings().stallTimeoutSeconds * 1000,
      stateDir: ctx.globalStorageUri.fsPath,
    }),
    failed,
  );
  const warn = (line: string): void => out.warn(line);
  const evalsOf = hubEvals(
    () => hub.connection(),
    rangeCacheOf(ctx),
    warn,
    () => readBaseline(runs),
  );
  const trees = new Trees(
    hub,
    runs,
    () => settings().repos,
    (repo, kind) => destinations.path(repo, kind),
    evalsOf,
  );
  const panels = new PanelManager(ctx, runs, (root, row) => trees.revealRow(root, row), warn);
  ctx.subscriptions.push(
    out,
    runs,
    hub,
    downloads,
    trees,
    panels,
    ...panels.register(),
    vscode.workspace.onDidChangeWorkspaceFolders(() => runs.startScan()),
    downloads.onDidFinish(() => trees.hub.refresh()),
  );
  return { runs, hub, downloads, trees, panels, settings, out, destinations, indexStore };
}
