/** Opening the metrics, report and trajectories panels of a local run. */
import type { TrajectoryQuery } from '../../shared/shapes';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { parseOpenTrajectoriesArgs } from '../commandArgs';
import { pickRun } from '../runs/pickRun';
import { registerCommands } from '../commands/registry';
import { PANEL_COMMANDS } from '../commands/ids';
import { escapeNotification as esc } from '../text';
import { MetricsPanel } from '../metrics/metricsPanel';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  registerCommands(ctx, PANEL_COMMANDS, {
    'rlRunBrowser.openMetrics': async (arg?: unknown) => {
      const root = await pickRun(s.runs, arg);
      if (root) await s.panels.open('metrics', root);
    },
    'rlRunBrowser.openReport': async (arg?: unknown) => {
      const root = await pickRun(s.runs, arg);
      if (root) await s.panels.open('report', root);
    },
    'rlRunBrowser.openTrajectories': async (arg?: unknown) => {
      const a = parseOpenTrajectoriesArgs(arg);
      const root = await pickRun(s.runs, a.root);
      if (!root) return;
      const q: TrajectoryQuery | undefined = a.filter ? { filter: a.filter, sort: a.sort ?? [] } : undefined;
      await s.panels.openTrajectories(root, q, a.label ?? null, a.select);
    },
    'rlRunBrowser.openTrajectory': (arg?: unknown) => openOneTrajectory(s, arg),
    'rlRunBrowser.overlayRuns': (arg?: unknown) => overlayRuns(s, arg),
  });
}

/** Overlays runs on a dashboard: the active one, else the dashboard of the run given or picked. */
async function overlayRuns(s: Services, arg: unknown): Promise<void> {
  const active =
    arg === undefined
      ? s.runs
          .list()
          .map((l) => s.panels.find('metrics', l.run.location.root))
          .find((p) => p?.panel.active)
      : undefined;
  const root = active?.root ?? (await pickRun(s.runs, arg));
  const panel = active ?? (root !== undefined ? await s.panels.open('metrics', root) : undefined);
  if (panel instanceof MetricsPanel) await panel.pickOverlay(true);
}

/** Asks for `iteration group rollout` and opens that trajectory, or says it is not there. */
async function openOneTrajectory(s: Services, arg: unknown): Promise<void> {
  const root = await pickRun(s.runs, arg);
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
  const idx = s.runs.get(root)?.run.credit;
  if (idx && idx.find(iteration, group, rollout) < 0) {
    void vscode.window.showWarningMessage(`No trajectory with iteration ${iteration}, group ${group}, rollout ${rollout} in ${esc(root)}.`);
    return;
  }
  await s.panels.openTrajectories(
    root,
    { filter: { iterationMin: iteration, iterationMax: iteration, group }, sort: [{ key: 'rollout' }] },
    null,
    { iteration, group, rollout },
  );
}
