/** The run a command acts on: its argument, else the only run, else the user's pick (from the runs already found). */
import * as vscode from 'vscode';
import type { RunService } from './runService';
import { parseRunArg } from '../commandArgs';

export async function pickRun(runs: RunService, arg: unknown): Promise<string | undefined> {
  const fromArg = parseRunArg(arg);
  if (fromArg) {
    return (await runs.ensure(fromArg, 'settled'))?.run.location.root ?? fromArg;
  }
  await runs.scanned();
  // a rescan only when nothing was found: the user may just have made the run
  if (runs.list().length === 0) await runs.scan();
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
}
