/** Activation: builds the services, registers each feature, then starts the first scan and the timers. */
import type * as vscode from 'vscode';
import { Configuration } from './configuration';
import { HubAutoRefresh } from './hub/autoRefresh';
import { applySettingsChange } from './settingsChange';
import { createServices } from './createServices';
import { apiOf } from './api';
import type { RlRunBrowserApi } from './api';
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
import * as runsTable from './runsTable/register';

export function activate(ctx: vscode.ExtensionContext): RlRunBrowserApi {
  const config = new Configuration();
  const services = createServices(ctx, config);
  const autoRefresh = new HubAutoRefresh(services.hub, () => services.settings().repos);
  ctx.subscriptions.push(
    config,
    autoRefresh,
    config.onDidChange((change) => applySettingsChange(services, autoRefresh, change)),
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
    runsTable,
  ])
    feature.register(ctx, services);

  services.runs.startScan();
  autoRefresh.every(services.settings().autoRefreshHubMinutes);
  services.downloads.offerResume();
  return apiOf(services, agentTools.agentToolsFacts);
}

export function deactivate(): void {
  // disposables are in the context's subscriptions
}
