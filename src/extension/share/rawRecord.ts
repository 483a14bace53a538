/**
 * "Open Raw Record": the log file in an editor at the record's line, or, for a line too
 * long for an editor (or from a turn), a read-only formatted view of that one record: a
 * virtual document (`rlrb-record:`) whose title names the file and the line, scrolled to
 * the turn. The view reads only the credit log of a run the extension has open.
 */
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { parseTolerant } from '../../core/log/tolerantJson';
import { buildSchemaTables } from '../../core/record/schema';
import type { Services } from '../services';
import type { ShareArgs } from './shareArgs';
import { prettyRecord, turnsKeyOf } from './prettyRecord';
import type { PrettyRecord } from './prettyRecord';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';
import { FORMAT_MAX_BYTES, rawRecordPlan } from './rawRecordPlan';

export const RECORD_SCHEME = 'rlrb-record';

interface RecordRef {
  log: string;
  iteration: number;
  group: number;
  rollout: number;
}

function recordUri(ref: RecordRef, line: number): vscode.Uri {
  return vscode.Uri.from({
    scheme: RECORD_SCHEME,
    path: `/${basename(ref.log)} line ${line}.json`,
    query: JSON.stringify(ref),
  });
}

function refOf(uri: vscode.Uri): RecordRef | undefined {
  try {
    const o = JSON.parse(uri.query) as Partial<RecordRef>;
    return typeof o.log === 'string' && [o.iteration, o.group, o.rollout].every((n) => Number.isSafeInteger(n))
      ? (o as RecordRef)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The formatted record `ref` names, read from the run that owns that log; an Error with one line otherwise. */
async function formatted(s: Services, ref: RecordRef): Promise<{ pretty: PrettyRecord; line: number }> {
  const live = s.runs.list().find((l) => l.run.credit?.path === ref.log);
  const idx = live?.run.credit;
  if (!idx) throw new Error(`${ref.log} is not the credit log of an open run`);
  const row = idx.find(ref.iteration, ref.group, ref.rollout);
  if (row < 0) throw new Error(`${ref.log}: no trajectory ${ref.iteration} · ${ref.group} · ${ref.rollout} any more`);
  const line = idx.columns.line[row]!;
  const bytes = idx.columns.length[row]!;
  if (bytes > FORMAT_MAX_BYTES) throw new Error(`${ref.log}:${line}: the record is too large to format (${bytes} bytes)`);
  let record: unknown;
  try {
    record = parseTolerant(await idx.rawText(row));
  } catch (e) {
    throw new Error(`${ref.log}:${line}: not JSON: ${errorMessage(e)}`);
  }
  const isObject = record !== null && typeof record === 'object' && !Array.isArray(record);
  const key = isObject ? turnsKeyOf(record as Record<string, unknown>, buildSchemaTables(idx.options.mapping)) : undefined;
  return { pretty: prettyRecord(record, key), line };
}

/** The provider of `rlrb-record:` documents. */
export function recordProvider(s: Services): vscode.TextDocumentContentProvider {
  return {
    provideTextDocumentContent: async (uri) => {
      const ref = refOf(uri);
      if (!ref) return '// not a record link';
      try {
        return (await formatted(s, ref)).pretty.text;
      } catch (e) {
        return `// ${errorMessage(e)}\n`;
      }
    },
  };
}

async function showAt(uri: vscode.Uri, line: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const at = new vscode.Range(line, 0, line, 0);
  await vscode.window.showTextDocument(doc, { selection: at, preview: true });
  vscode.window.activeTextEditor?.revealRange(at, vscode.TextEditorRevealType.AtTop);
}

/**
 * A record too large to format: the log in the editor at its line, through `vscode.open`
 * (the editor reads the file itself: a log over 50 MB cannot be opened as a document of the
 * extension host), with the plan's note.
 */
async function openLogAt(log: string, line: number, note: string): Promise<void> {
  const at = new vscode.Range(line - 1, 0, line - 1, 0);
  try {
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(log), { selection: at, preview: true });
    void vscode.window.showInformationMessage(`RL Runs: ${esc(note)}`);
  } catch (e) {
    void vscode.window.showErrorMessage(`RL Runs: ${esc(`${log}:${line}: the editor refused the file (${errorMessage(e)})`)}`);
  }
}

export async function openRawRecord(s: Services, a: ShareArgs): Promise<void> {
  const idx = s.runs.get(a.root)?.run.credit;
  if (!idx) return void vscode.window.showWarningMessage(`The run ${esc(a.root)} has no credit log open.`);
  if (!a.key) return void vscode.window.showInformationMessage('Select a trajectory first: Open Raw Record opens its line of the log.');
  const { iteration, group, rollout } = a.key;
  const row = idx.find(iteration, group, rollout);
  if (row < 0) return void vscode.window.showWarningMessage(`No trajectory ${iteration} · ${group} · ${rollout} in ${esc(idx.path)}.`);
  const line = idx.columns.line[row]!;
  const ref: RecordRef = { log: idx.path, iteration, group, rollout };
  const localFile = s.runs.get(a.root)?.run.location.remote === undefined;
  const plan = rawRecordPlan({ bytes: idx.columns.length[row]!, turn: a.turn, localFile, at: `${idx.path}:${line}` });
  if (plan.kind === 'refused') return void vscode.window.showWarningMessage(`RL Runs: ${esc(plan.message)}`);
  if (plan.kind === 'log' && plan.note !== undefined) return openLogAt(idx.path, line, plan.note);
  if (plan.kind === 'log') {
    try {
      await showAt(vscode.Uri.file(idx.path), line - 1);
      return;
    } catch (e) {
      s.out.warn(`${idx.path}:${line}: the editor refused the file (${errorMessage(e)}); showing the record formatted`);
    }
  }
  try {
    const { pretty } = await formatted(s, ref);
    await showAt(recordUri(ref, line), a.turn === null ? 0 : (pretty.turnLines[a.turn] ?? 0));
  } catch (e) {
    void vscode.window.showErrorMessage(`RL Runs: ${esc(errorMessage(e))}`);
  }
}
