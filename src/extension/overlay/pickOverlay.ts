/** The quick pick of local runs to overlay on a dashboard. */
import * as vscode from 'vscode';
import type { RunService } from '../runs/runService';
import { escapeNotification as esc } from '../text';

/** The roots the user picks among the local runs not in `exclude` (one, or several with `many`); [] when cancelled or none. */
export async function pickOverlayRuns(runs: RunService, exclude: readonly string[], many: boolean): Promise<string[]> {
  await runs.scanned();
  const items = runs
    .list()
    .filter((l) => !exclude.includes(l.run.location.root))
    .map((l) => ({
      label: esc(l.run.location.name),
      description: esc(l.run.location.root),
      detail: l.run.metrics ? undefined : 'no ws_metrics.jsonl: nothing to chart',
      root: l.run.location.root,
    }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No other local run to overlay: add a run folder to rlRunBrowser.runFolders or open one.');
    return [];
  }
  if (many) {
    const picked = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: 'Runs to overlay on the dashboard' });
    return (picked ?? []).map((p) => p.root);
  }
  const one = await vscode.window.showQuickPick(items, { placeHolder: 'Run to overlay on the dashboard' });
  return one ? [one.root] : [];
}
