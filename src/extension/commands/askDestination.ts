/** Asks where a download goes: the remembered or default folder in one click, or a folder dialog. */
import * as vscode from 'vscode';
import type { DestKind, Destinations } from '../destinations';

export async function askDestination(destinations: Destinations, repo: string, kind: DestKind): Promise<string | undefined> {
  const known = destinations.get(repo, kind);
  if (known) {
    const choice = await vscode.window.showQuickPick(
      [
        { label: `$(folder) ${known.path}`, description: known.remembered ? 'last used for this repo' : 'default', dest: known.path },
        { label: '$(folder-opened) Choose another folder…', dest: undefined },
      ],
      {
        placeHolder:
          kind === 'resume'
            ? 'Where the launcher resumes from (iter_XXXXXXX/ and latest_checkpointed_iteration.txt go here)'
            : 'Download into',
      },
    );
    if (!choice) return undefined;
    if (choice.dest) {
      await destinations.remember(repo, kind, choice.dest);
      return choice.dest;
    }
  }
  const uris = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: kind === 'resume' ? "Download checkpoint here (the launcher's ckpt folder)" : 'Download here',
    ...(known ? { defaultUri: vscode.Uri.file(known.path) } : {}),
  });
  const picked = uris?.[0]?.fsPath;
  if (picked) await destinations.remember(repo, kind, picked);
  return picked;
}
