/** Signing in to and out of the Hub (the token lives in VS Code's secret storage). */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerCommands } from '../commands/registry';
import { ACCOUNT_COMMANDS } from '../commands/ids';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';

export function registerAccount(ctx: vscode.ExtensionContext, s: Services): void {
  const refreshAll = (): void => {
    for (const r of s.settings().repos) s.hub.startRefresh(r);
  };
  registerCommands(ctx, ACCOUNT_COMMANDS, {
    'rlRunBrowser.signIn': async (tokenArg?: unknown) => {
      const token =
        typeof tokenArg === 'string'
          ? tokenArg
          : await vscode.window.showInputBox({
              prompt: "Hugging Face access token (read is enough); checked with the Hub, kept in VS Code's secret storage",
              password: true,
              ignoreFocusOut: true,
              validateInput: (v) => (v.trim().startsWith('hf_') ? undefined : 'A Hugging Face token starts with hf_'),
            });
      if (!token) return false;
      try {
        const name = await s.hub.signIn(token.trim());
        void vscode.window.showInformationMessage(`Signed in to ${esc(s.hub.endpoint())} as ${esc(name)}.`);
        refreshAll();
        return true;
      } catch (e) {
        void vscode.window.showErrorMessage(`Sign-in failed: ${esc(errorMessage(e))}`);
        return false;
      }
    },
    'rlRunBrowser.signOut': async () => {
      await s.hub.signOut();
      void vscode.window.showInformationMessage('Signed out of Hugging Face (the stored token was removed).');
      refreshAll();
    },
  });
}
