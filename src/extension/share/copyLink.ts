/** "Copy Link": a link to the browser's trajectory (and turn), or to the run when nothing is selected. */
import * as vscode from 'vscode';
import type { ShareArgs } from './shareArgs';
import { shareLink } from './shareArgs';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';

export async function copyLink(out: vscode.LogOutputChannel, a: ShareArgs): Promise<void> {
  let link: string;
  try {
    link = shareLink(a, vscode.env.uriScheme);
  } catch (e) {
    return void vscode.window.showErrorMessage(`RL Runs: no link for this run: ${esc(errorMessage(e))}`);
  }
  await vscode.env.clipboard.writeText(link);
  out.info(`copied link: ${link}`);
  const what = a.key ? `${a.key.iteration} · ${a.key.group} · ${a.key.rollout}${a.turn !== null ? `, turn ${a.turn}` : ''}` : 'the run';
  void vscode.window.showInformationMessage(`Copied a link to ${what}.`);
}
