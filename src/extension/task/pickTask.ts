/** The palette's questions for the task view and the side-by-side view: which runs, which task, which trajectory. */
import * as vscode from 'vscode';
import type { RunService } from '../runs/runService';
import { taskCounts } from '../../core/compare/taskHistory';
import type { RunTrajectoryKey } from '../../shared/protocol/task';
import { formatCount } from '../../shared/format';
import { escapeNotification as esc } from '../text';
import { pickRun } from '../runs/pickRun';
import { taskRows } from './taskColumns';
import { shortText } from './taskPanel';
import { inCheckOrder } from './checkOrder';

/** One or two runs: the only run, else the user's pick (one or two of the list). */
export async function pickRuns(runs: RunService): Promise<string[] | undefined> {
  await runs.scan();
  const list = runs.list();
  if (list.length <= 1) {
    const only = await pickRun(runs, undefined);
    return only ? [only] : undefined;
  }
  const picked = await pickInCheckOrder(
    list.map((l) => ({ label: l.run.location.name, description: l.run.location.root, root: l.run.location.root })),
    'Which run or runs? (one, or two to compare: the first checked is A, the second B)',
  );
  if (!picked || picked.length === 0) return undefined;
  if (picked.length > 2) {
    void vscode.window.showWarningMessage(`The task view shows one run or two: ${picked.length} were chosen.`);
    return undefined;
  }
  return picked.map((p) => p.root);
}

/** A multi-select quick pick whose answer is in the order the items were checked (the list itself is sorted by name). */
function pickInCheckOrder<T extends vscode.QuickPickItem>(items: T[], placeholder: string): Promise<T[] | undefined> {
  const qp = vscode.window.createQuickPick<T>();
  qp.items = items;
  qp.canSelectMany = true;
  qp.placeholder = placeholder;
  let order: T[] = [];
  return new Promise((resolve) => {
    qp.onDidChangeSelection((sel) => (order = inCheckOrder(order, sel)));
    qp.onDidAccept(() => {
      resolve(inCheckOrder(order, qp.selectedItems));
      qp.dispose();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** Instructions are read back for the pick list's first tasks only (one record each). */
const INSTRUCTIONS_READ = 1000;

/** A task of the runs, from a quick pick of every task key with its counts in each run. */
export async function pickTask(runs: RunService, roots: readonly string[]): Promise<string | undefined> {
  const counts = new Map<string, { perRun: string[]; total: number; row?: number; root?: string }>();
  for (const [i, root] of roots.entries()) {
    const idx = runs.get(root)?.run.credit;
    if (!idx) continue;
    await runs.get(root)!.run.update();
    const rows = await taskRows(idx);
    for (const c of taskCounts(rows)) {
      const e = counts.get(c.task) ?? { perRun: roots.map(() => 'none'), total: 0 };
      e.perRun[i] = `${formatCount(c.trajectories)} trajectories in ${formatCount(c.iterations)} iterations`;
      e.total += c.trajectories;
      counts.set(c.task, e);
    }
  }
  if (counts.size === 0) {
    void vscode.window.showWarningMessage(`No task (task_id or instruction) in ${roots.map(esc).join(' or ')}.`);
    return undefined;
  }
  const sorted = [...counts.entries()].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1));
  const names = roots.map((r) => runs.get(r)?.run.location.name ?? r);
  const items = await Promise.all(
    sorted.map(async ([task, e], n) => ({
      label: shortText(task, 100),
      description: e.perRun.map((p, i) => (roots.length > 1 ? `${names[i]}: ${p}` : p)).join(' · '),
      detail: n < INSTRUCTIONS_READ ? await instructionOf(runs, roots, task) : undefined,
      task,
    })),
  );
  const pick = await vscode.window.showQuickPick(items, {
    placeHolder: 'Which task? (task_id, else instruction; type to filter)',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return pick?.task;
}

/** The instruction of a task keyed by its task_id (undefined when the key is the instruction itself). */
async function instructionOf(runs: RunService, roots: readonly string[], task: string): Promise<string | undefined> {
  for (const root of roots) {
    const idx = runs.get(root)?.run.credit;
    if (!idx) continue;
    const rows = await taskRows(idx);
    const id = rows.tasks.indexOf(task);
    if (id < 0) continue;
    for (let i = 0; i < rows.size; i++)
      if (rows.task[i] === id) {
        const t = await idx.read(i).catch(() => undefined);
        const text = t?.instruction;
        return text && text !== task ? shortText(text, 160) : undefined;
      }
  }
  return undefined;
}

/** A trajectory of a run: the run (its argument, else asked) and `iteration group rollout`, checked against its index. */
export async function pickTrajectory(runs: RunService, side: string): Promise<RunTrajectoryKey | undefined> {
  const root = await pickRun(runs, undefined);
  if (!root) return undefined;
  const text = await vscode.window.showInputBox({
    prompt: `${side} trajectory: iteration group rollout`,
    placeHolder: '12 7 3',
    validateInput: (v) => (/^\s*\d+[\s,/]+\d+[\s,/]+\d+\s*$/.test(v) ? undefined : 'three whole numbers: iteration, group, rollout'),
  });
  if (!text) return undefined;
  const [iteration, group, rollout] = text
    .trim()
    .split(/[\s,/]+/)
    .map(Number) as [number, number, number];
  const idx = runs.get(root)?.run.credit;
  if (idx && idx.find(iteration, group, rollout) < 0) {
    void vscode.window.showWarningMessage(`No trajectory with iteration ${iteration}, group ${group}, rollout ${rollout} in ${esc(root)}.`);
    return undefined;
  }
  return { run: root, iteration, group, rollout };
}
