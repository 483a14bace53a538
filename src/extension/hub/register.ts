/** Following Hub repos, refreshing their listings, opening them on the website. */
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import type { Services } from '../services';
import { parseHubNode } from '../commandArgs';
import { SECTION } from '../settings';
import { iterDirName, repoWebUrl } from '../../core/hub/model';
import { registerCommands } from '../commands/registry';
import { checkRepo, repoNameProblem } from '../../core/hub/repoCheck';
import { escapeNotification as esc } from '../text';
import { HUB_COMMANDS } from '../commands/ids';
import { registerAccount } from './account';

/** The hub feature's commands: following repos and the account. */
export function register(ctx: vscode.ExtensionContext, s: Services): void {
  registerHub(ctx, s);
  registerAccount(ctx, s);
}

function registerHub(ctx: vscode.ExtensionContext, s: Services): void {
  const repos = (): string[] => s.settings().repos;
  registerCommands(ctx, HUB_COMMANDS, {
    'rlRunBrowser.refresh': async () => {
      s.trees.hub.refresh();
      await Promise.all(repos().map((r) => s.hub.refresh(r)));
      await s.runs.scan();
    },
    'rlRunBrowser.followRepo': async () => {
      const input = await vscode.window.showInputBox({
        prompt: 'Hub model repo to follow (owner/name)',
        placeHolder: 'XunmeiLiu/openwebrl-ws-credit-beta0.4',
        validateInput: (v) => repoNameProblem(v.trim()),
      });
      const repo = input?.trim();
      if (!repo) return;
      // a name typed elsewhere (a command argument) is checked too, before any request
      const found = await checkRepo(repo, await s.hub.connection());
      if (found.state !== 'found') {
        const why = found.state === 'not-found' ? `was not found on ${s.hub.endpoint()}` : `cannot be followed (${found.message})`;
        void vscode.window.showWarningMessage(`${esc(repo)} ${esc(why)}: not followed`);
        return;
      }
      const next = [...new Set([...repos(), repo])];
      await vscode.workspace.getConfiguration(SECTION).update('repos', next, vscode.ConfigurationTarget.Global);
    },
    'rlRunBrowser.unfollowRepo': async (n?: unknown) => {
      const node = parseHubNode(n);
      const repo = node?.repo ?? (await vscode.window.showQuickPick(repos(), { placeHolder: 'Stop following which repo?' }));
      if (!repo) return;
      await vscode.workspace.getConfiguration(SECTION).update(
        'repos',
        repos().filter((r) => r !== repo),
        vscode.ConfigurationTarget.Global,
      );
      s.hub.forget(repo);
    },
    'rlRunBrowser.openOnHub': (n?: unknown) => {
      const node = parseHubNode(n);
      if (!node) return;
      const path =
        node.kind === 'iteration'
          ? `${node.folder}/${iterDirName(node.iteration)}`
          : node.kind === 'folder'
            ? node.folder
            : node.kind === 'file'
              ? dirname(node.path)
              : undefined;
      void vscode.env.openExternal(vscode.Uri.parse(repoWebUrl(s.hub.endpoint(), node.repo, path)));
    },
  });
}
