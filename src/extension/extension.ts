/** Activation: builds the services, the trees and the panels, and registers each feature's commands. */
import * as vscode from 'vscode';
import { RunService } from './runs/runService';
import { HubService } from './hub/hubService';
import { DownloadManager } from './downloads/downloadManager';
import { Trees } from './trees/treeViews';
import { PanelManager } from './panels/panelManager';
import { Destinations } from './downloads/destinations';
import { Configuration } from './configuration';
import { HubAutoRefresh } from './hub/autoRefresh';
import { applySettingsChange } from './settingsChange';
import type { Services } from './services';
import type { Settings } from './settings';
import type { RunReport } from '../core/report/report';
import * as hubFeature from './hub/register';
import * as downloadsFeature from './downloads/register';
import * as runPanels from './panels/register';
import * as runsFeature from './runs/register';
import * as share from './share/register';
import * as inPlace from './inPlace/register';
import * as task from './task/register';
import * as compare from './compare/register';
import * as problems from './problems/register';
import * as welcome from './welcome/register';
import * as agentTools from './mcp/register';
import * as live from './live/register';
import type { AgentToolsFacts } from './mcp/register';
import { TrajectoriesPanel } from './trajectories/trajectoriesPanel';
import type { TrajectoryKey } from '../shared/protocol';
import { IndexStore } from '../core/log/indexStore';
import { hubEvals } from './trees/hubEvals';
import { readBaseline } from './runs/baseline';
import { rangeCacheOf } from './inPlace/register';

/** What `activate` returns: read-only facts for the in-host tests (never the token itself). */
export interface RlRunBrowserApi {
  runRoots(): string[];
  report(root: string): RunReport | undefined;
  hasStoredToken(): Promise<boolean>;
  settingsTau(): number;
  /** the agent tools registered (src/extension/mcp/register.ts) */
  agentTools: AgentToolsFacts;
  /** the trajectory the browser of `root` shows, when it is open */
  browserSelection(root: string): TrajectoryKey | undefined;
}

export function activate(ctx: vscode.ExtensionContext): RlRunBrowserApi {
  const config = new Configuration();
  const settings = (): Settings => config.current;
  const out = vscode.window.createOutputChannel('RL Runs', { log: true });
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
  );
  const hub = new HubService(
    ctx.secrets,
    () => settings().endpoint,
    () => settings().stallTimeoutSeconds * 1000,
  );
  const downloads = new DownloadManager(hub, ctx.globalState, () => ({
    concurrency: settings().downloadConcurrency,
    stallTimeoutMs: settings().stallTimeoutSeconds * 1000,
    stateDir: ctx.globalStorageUri.fsPath,
  }));
  const trees = new Trees(
    hub,
    runs,
    () => settings().repos,
    (repo, kind) => destinations.path(repo, kind),
    hubEvals(
      () => hub.connection(),
      rangeCacheOf(ctx),
      (line) => out.warn(line),
      () => readBaseline(runs),
    ),
  );
  const panels = new PanelManager(
    ctx,
    runs,
    (root, row) => trees.revealRow(root, row),
    (line) => out.warn(line),
  );
  const autoRefresh = new HubAutoRefresh(hub, () => settings().repos);
  const services: Services = { runs, hub, downloads, trees, panels, settings, out, destinations, indexStore };
  ctx.subscriptions.push(
    config,
    out,
    runs,
    hub,
    downloads,
    trees,
    panels,
    autoRefresh,
    ...panels.register(),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void runs.scan()),
    config.onDidChange((change) => applySettingsChange(services, autoRefresh, change)),
    downloads.onDidFinish(() => trees.hub.refresh()),
  );

  for (const feature of [
    hubFeature,
    downloadsFeature,
    runPanels,
    runsFeature,
    share,
    inPlace,
    task,
    compare,
    problems,
    welcome,
    agentTools,
    live,
  ])
    feature.register(ctx, services);

  void runs.scan();
  autoRefresh.every(settings().autoRefreshHubMinutes);
  downloads.offerResume();
  return {
    runRoots: () => runs.list().map((l) => l.run.location.root),
    report: (root) => runs.get(root)?.run.report()?.report,
    hasStoredToken: () => hub.hasStoredToken(),
    settingsTau: () => settings().index.credit.tau,
    agentTools: agentTools.agentToolsFacts,
    browserSelection: (root) => {
      const p = panels.find('trajectories', root);
      return p instanceof TrajectoriesPanel ? p.selected : undefined;
    },
  };
}

export function deactivate(): void {
  // disposables are in the context's subscriptions
}
