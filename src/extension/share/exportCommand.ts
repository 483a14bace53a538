/** "Export Trajectories…": the browser's current filter to a JSONL, CSV or Parquet file the user picks. */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { describeFilter } from '../../core/notebook/describeFilter';
import type { ExportFormat } from '../../core/export/exportRows';
import { formatBytes } from '../../shared/format';
import type { Services } from '../services';
import type { ShareArgs } from './shareArgs';
import { exportWithProgress, selection } from './exportSelection';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';
import { targetIsLog } from '../../core/export/exportTarget';

/** The format a chosen file's name asks for: `.csv` is CSV, `.parquet` Parquet, anything else JSONL. */
export function formatOfPath(path: string): ExportFormat {
  if (/\.csv$/i.test(path)) return 'csv';
  return /\.parquet$/i.test(path) ? 'parquet' : 'jsonl';
}

const trajectories = (n: number): string => `${n} ${n === 1 ? 'trajectory' : 'trajectories'}`;

/** A path the extension host can write: a local file, or a file on the remote machine the host runs on. */
function hostPath(uri: vscode.Uri): string | undefined {
  return uri.scheme === 'file' || uri.scheme === 'vscode-remote' ? uri.fsPath : undefined;
}

/** Where the save dialog starts: the run's folder, or for a run on the Hub the workspace's first folder (else home). */
function startFolder(root: string): string {
  return isAbsolute(root) ? root : (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir());
}

export async function exportTrajectories(s: Services, a: ShareArgs): Promise<void> {
  const live = s.runs.get(a.root);
  const sel = live && (await selection(live, a.query));
  if (!live || !sel) return void vscode.window.showWarningMessage(`The run ${esc(a.root)} has no credit log open.`);
  const what = describeFilter(sel.filter);
  if (sel.rows.length === 0) return void vscode.window.showInformationMessage(`No trajectory to export: none matches ${esc(what)}.`);
  const name = live.run.location.name.replace(/[^\w.-]+/g, '_');
  const uri = await vscode.window.showSaveDialog({
    title: `Export ${trajectories(sel.rows.length)} (${what})`,
    defaultUri: vscode.Uri.file(join(startFolder(live.run.location.root), `${name}-trajectories.jsonl`)),
    filters: {
      'JSON Lines (original records)': ['jsonl'],
      'CSV (one row per trajectory)': ['csv'],
      'Parquet (one row per trajectory, typed)': ['parquet'],
    },
    saveLabel: 'Export',
  });
  if (!uri) return;
  const path = hostPath(uri);
  if (!path)
    return void vscode.window.showErrorMessage(`RL Runs: cannot write ${esc(uri.toString())} (only files the extension host can reach).`);
  const loc = live.run.location;
  const own = loc.remote === undefined ? await targetIsLog(path, [loc.creditLog, loc.metricsLog]) : undefined;
  if (own !== undefined)
    return void vscode.window.showErrorMessage(
      `RL Runs: ${esc(path)} is the run's own log (${esc(basename(own))}): export to another file.`,
    );
  try {
    const r = await exportWithProgress(sel, formatOfPath(path), path);
    if (!r) return void vscode.window.showInformationMessage(`Export cancelled: nothing was written to ${esc(path)}.`);
    s.out.info(`exported ${trajectories(r.rows)} (${what}) to ${path}`);
    void vscode.window
      .showInformationMessage(`Exported ${trajectories(r.rows)} (${formatBytes(r.bytes)}) to ${esc(basename(path))}.`, 'Open File')
      .then((open) => (open ? vscode.window.showTextDocument(vscode.Uri.file(path)) : undefined));
  } catch (e) {
    void vscode.window.showErrorMessage(`RL Runs: export to ${esc(path)} failed: ${esc(errorMessage(e))}`);
  }
}
