/**
 * Where a download goes: the folder remembered for this repo and kind, without asking;
 * the first time, the default folder in one click or a folder dialog. "Change
 * Download Destination…" picks another folder for the next downloads.
 */
import * as vscode from 'vscode';
import type { DestKind, Destinations } from './destinations';
import { destinationPrompt } from './destinationPrompt';

export async function askDestination(destinations: Destinations, repo: string, kind: DestKind): Promise<string | undefined> {
  const known = destinations.get(repo, kind);
  if (known?.remembered) return known.path;
  if (known) {
    const ask = destinationPrompt(repo, kind);
    const choice = await vscode.window.showQuickPick(
      [
        { label: `$(folder) ${known.path}`, description: 'default', detail: ask.note, dest: known.path },
        { label: '$(folder-opened) Choose another folder…', dest: undefined },
      ],
      { title: ask.title, placeHolder: ask.placeHolder },
    );
    if (!choice) return undefined;
    if (choice.dest) {
      await destinations.remember(repo, kind, choice.dest);
      return choice.dest;
    }
  }
  return chooseFolder(destinations, repo, kind);
}

/** A folder dialog; the folder picked is remembered for this repo and kind. */
export async function chooseFolder(destinations: Destinations, repo: string, kind: DestKind): Promise<string | undefined> {
  const known = destinations.get(repo, kind);
  const uris = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    title: `${repo}: where ${kind === 'resume' ? 'checkpoints' : kind === 'hf' ? 'weights' : 'logs'} are downloaded`,
    openLabel: kind === 'resume' ? "Download checkpoints here (the launcher's ckpt folder)" : 'Download here',
    ...(known ? { defaultUri: vscode.Uri.file(known.path) } : {}),
  });
  const picked = uris?.[0]?.fsPath;
  if (picked) await destinations.remember(repo, kind, picked);
  return picked;
}
