/** RL Runs: Open Runs Table: every run of the window in one table, and what its cells and buttons open. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerCommands } from '../commands/registry';
import { RUNS_TABLE_COMMANDS } from '../commands/ids';
import { MetricsPanel } from '../metrics/metricsPanel';
import { canonicalMetric } from '../overlay/metricMatch';
import { readCard } from '../../core/hub/card';
import { parseHubRef } from '../../core/hub/inPlace/hubRef';
import { escapeNotification as esc } from '../text';
import type { RunsTableSources } from './runsTablePanel';

function sources(s: Services): RunsTableSources {
  const dashboard = async (root: string): Promise<MetricsPanel | undefined> => {
    const p = await s.panels.open('metrics', root);
    return p instanceof MetricsPanel ? p : undefined;
  };
  return {
    repos: () => s.settings().repos,
    // the in-place feature owns its open runs (their ranges, their commits): its command is its one door
    readInPlace: async (repo) => vscode.commands.executeCommand<string | undefined>('rlRunBrowser.openLogsInPlace', repo),
    hubCard: async (root) => {
      const ref = parseHubRef(root);
      return typeof ref === 'string' ? undefined : readCard(ref.repo, ref.revision, await s.hub.connection());
    },
    pickFolder: async () => {
      const picked = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        canSelectMany: false,
        openLabel: 'Add to the Runs Table',
      });
      return picked?.[0]?.fsPath;
    },
    compare: (a, b) => void s.panels.openCompare(a, b),
    overlay: async (roots) => {
      const [first, ...rest] = roots;
      if (first !== undefined) await (await dashboard(first))?.addOverlay(rest);
    },
    openReward: async (root) => {
      const names = s.runs.get(root)?.run.metrics?.getTable().names ?? [];
      const reward = names.find((n) => canonicalMetric(n) === 'ws/reward_mean');
      const p = await dashboard(root);
      if (p && reward !== undefined) p.focusMetric(reward);
    },
    tell: (line) => void vscode.window.showWarningMessage(`RL Runs: ${esc(line)}`),
  };
}

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  s.panels.useRunsTableSources(sources(s));
  registerCommands(ctx, RUNS_TABLE_COMMANDS, {
    'rlRunBrowser.openRunsTable': async () => {
      s.panels.openRunsTable();
      return Promise.resolve();
    },
  });
}
