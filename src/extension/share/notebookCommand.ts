/**
 * "Open Selection in a Notebook": exports the browser's current filter as CSV into the
 * extension's storage and opens a new, untitled Jupyter notebook over it (the cells of
 * core's notebook builder). Without the Jupyter extension it says what it needs.
 */
import * as vscode from 'vscode';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildNotebook } from '../../core/notebook/notebook';
import { describeFilter } from '../../core/notebook/describeFilter';
import type { Services } from '../services';
import type { ShareArgs } from './shareArgs';
import { exportWithProgress, selection } from './exportSelection';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';

export const JUPYTER_EXTENSION = 'ms-toolsai.jupyter';

/** Says, in one line, that notebooks need the Jupyter extension, and offers its page. */
async function needJupyter(): Promise<void> {
  const pick = await vscode.window.showWarningMessage(
    `Open Selection in a Notebook needs the Jupyter extension (${JUPYTER_EXTENSION}).`,
    'Show Jupyter Extension',
  );
  if (pick) await vscode.commands.executeCommand('extension.open', JUPYTER_EXTENSION);
}

function notebookData(cells: ReturnType<typeof buildNotebook>['cells']): vscode.NotebookData {
  const data = new vscode.NotebookData(
    cells.map((c) =>
      c.cell_type === 'code'
        ? new vscode.NotebookCellData(vscode.NotebookCellKind.Code, c.source.join(''), 'python')
        : new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, c.source.join(''), 'markdown'),
    ),
  );
  data.metadata = { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } };
  return data;
}

export async function openInNotebook(ctx: vscode.ExtensionContext, s: Services, a: ShareArgs): Promise<void> {
  if (!vscode.extensions.getExtension(JUPYTER_EXTENSION)) return needJupyter();
  const live = s.runs.get(a.root);
  const sel = live && (await selection(live, a.query));
  if (!live || !sel) return void vscode.window.showWarningMessage(`The run ${esc(a.root)} has no credit log open.`);
  const what = describeFilter(sel.filter);
  if (sel.rows.length === 0) return void vscode.window.showInformationMessage(`No trajectory to open: none matches ${esc(what)}.`);
  const dir = join(ctx.globalStorageUri.fsPath, 'exports');
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `${live.run.location.name.replace(/[^\w.-]+/g, '_')}-${stamp}.csv`);
  try {
    const r = await exportWithProgress(sel, 'csv', path);
    if (!r) return;
    const nb = buildNotebook({
      runName: live.run.location.name,
      runLocation: live.run.location.root,
      selection: what,
      dataPath: path,
      format: 'csv',
      rows: r.rows,
    });
    const doc = await vscode.workspace.openNotebookDocument('jupyter-notebook', notebookData(nb.cells));
    await vscode.window.showNotebookDocument(doc);
  } catch (e) {
    void vscode.window.showErrorMessage(`RL Runs: cannot open the selection in a notebook: ${esc(errorMessage(e))}`);
  }
}
