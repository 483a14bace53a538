/**
 * The baseline the report and the Hub tree state the checkpoint verdict against (docs/format.md
 * section 8): the run folder the setting `rlRunBrowser.baseline` names, absolute or relative to
 * the first workspace folder. "Choose Baseline…" writes it to the workspace's settings, where the
 * user sees and changes it; empty, no verdict is stated there.
 */
import * as vscode from 'vscode';
import { isAbsolute, relative, resolve } from 'node:path';
import type { RunService } from './runService';
import type { BaselineEvals } from '../report/checkpointVerdict';
import { SECTION } from '../settings';
import { errorMessage } from '../../core/errorMessage';

export const BASELINE_KEY = 'baseline';

const firstFolder = (): string | undefined => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;

/** The setting's value, trimmed; undefined when empty. */
export function baselineSetting(): string | undefined {
  const v = vscode.workspace.getConfiguration(SECTION).get<unknown>(BASELINE_KEY);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The folder a setting's value names: relative to the first workspace folder. */
export function baselinePath(value: string, base: string | undefined = firstFolder()): string {
  return isAbsolute(value) || base === undefined ? resolve(value) : resolve(base, value);
}

/** The baseline set, its evaluation log read; undefined when none is set. `self`: the run it is stated for. */
export async function readBaseline(runs: RunService, self?: string): Promise<BaselineEvals | undefined> {
  const value = baselineSetting();
  if (value === undefined) return undefined;
  const live = await runs.ensure(baselinePath(value), 'settled');
  if (!live) return { name: value, episodes: undefined, problem: `${SECTION}.${BASELINE_KEY} names no run: no logs at ${value}.` };
  const run = live.run;
  const name = run.location.name;
  if (run.location.root === self) return { name, episodes: undefined, problem: 'The baseline set is this run itself.' };
  try {
    await run.updateEvals();
  } catch (e) {
    return { name, episodes: undefined, problem: `The baseline's evaluation log cannot be read: ${errorMessage(e)}` };
  }
  return { name, episodes: run.evals?.episodes };
}

/** Asks for the baseline among the runs with an evaluation log (not `except`) and writes it to the workspace's settings. */
export async function chooseBaseline(runs: RunService, except?: string): Promise<void> {
  await runs.scanned();
  const here = firstFolder();
  const items = runs
    .list()
    .filter((l) => l.run.location.root !== except && l.run.evals !== undefined && l.run.location.remote === undefined)
    .map((l) => {
      const root = l.run.location.root;
      const rel = here !== undefined ? relative(here, root) : root;
      const value = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : root;
      return { label: l.run.location.name, description: root, value };
    });
  if (items.length === 0) {
    void vscode.window.showWarningMessage('RL Runs: no other local run has an evaluation log (logs/eval_log.jsonl) to be the baseline.');
    return;
  }
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'The baseline: the run the checkpoint verdict is against' });
  if (!pick) return;
  await vscode.workspace.getConfiguration(SECTION).update(BASELINE_KEY, pick.value, vscode.ConfigurationTarget.Workspace);
}

/** Fires when the setting changes. */
export function onBaselineChange(f: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`${SECTION}.${BASELINE_KEY}`)) f();
  });
}
