/** The task view's and the side-by-side view's commands (their panels are in the panels service). */
import type * as vscode from 'vscode';
import type { Services } from '../services';
import { registerCommands } from '../commands/registry';
import { TASK_COMMANDS } from '../commands/ids';
import { pickRun } from '../runs/pickRun';
import { parseRunTrajectoryKey } from '../../shared/protocol/task';
import type { RunTrajectoryKey } from '../../shared/protocol/task';
import { pickRuns, pickTask, pickTrajectory } from './pickTask';

/** The run roots of a command's argument: 1 or 2 strings, opened (and normalised) like any run argument. */
async function runArgs(s: Services, v: unknown): Promise<string[] | undefined> {
  if (!Array.isArray(v) || v.length < 1 || v.length > 2 || !v.every((x) => typeof x === 'string' && x.length > 0)) return undefined;
  const out: string[] = [];
  for (const r of v as string[]) out.push((await pickRun(s.runs, r)) ?? r);
  return out;
}

async function keyArg(s: Services, v: unknown): Promise<RunTrajectoryKey | undefined> {
  const k = parseRunTrajectoryKey(v);
  return k && { ...k, run: (await pickRun(s.runs, k.run)) ?? k.run };
}

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  registerCommands(ctx, TASK_COMMANDS, {
    /** `(task: string, runs: string[])`, else asks the runs and then the task */
    'rlRunBrowser.openTask': async (task?: unknown, runs?: unknown) => {
      const roots = (await runArgs(s, runs)) ?? (await pickRuns(s.runs));
      if (!roots) return;
      const t = typeof task === 'string' && task.length > 0 ? task : await pickTask(s.runs, roots);
      if (t) s.panels.openTask(t, roots);
    },
    /** `(left, right)`, each `{ run, iteration, group, rollout }`; a side not given is asked */
    'rlRunBrowser.openSideBySide': async (a?: unknown, b?: unknown) => {
      const left = (await keyArg(s, a)) ?? (await pickTrajectory(s.runs, 'Left'));
      if (!left) return;
      const right = (await keyArg(s, b)) ?? (await pickTrajectory(s.runs, 'Right'));
      if (right) s.panels.openSideBySide(left, right);
    },
  });
}
