/** The saved log indexes: clear them. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { CACHE_COMMANDS } from './ids';
import { registerCommands } from './registry';
import { formatBytes } from '../../shared/format';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  registerCommands(ctx, CACHE_COMMANDS, {
    'rlRunBrowser.clearIndexCache': () => clearIndexCache(s),
  });
}

async function clearIndexCache(s: Services): Promise<{ files: number; bytes: number }> {
  const r = await s.indexStore.clear();
  void vscode.window.showInformationMessage(
    `Cleared ${r.files} saved log indexes (${formatBytes(r.bytes)}); the next open reads each log again.`,
  );
  return r;
}
