/** The saved log indexes and the fetched ranges of Hub logs read in place: clear them. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { CACHE_COMMANDS } from '../commands/ids';
import { registerCommands } from '../commands/registry';
import { formatBytes } from '../../shared/format';
import { rangeCacheOf } from '../inPlace/register';
import type { RangeCache } from '../../core/hub/inPlace/rangeCache';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  registerCommands(ctx, CACHE_COMMANDS, {
    'rlRunBrowser.clearIndexCache': () => clearIndexCache(s, rangeCacheOf(ctx)),
  });
}

async function clearIndexCache(
  s: Services,
  ranges: RangeCache,
): Promise<{ files: number; bytes: number; ranges: number; rangeBytes: number }> {
  const r = await s.indexStore.clear();
  const g = await ranges.clear();
  void vscode.window.showInformationMessage(
    `Cleared ${r.files} saved log indexes (${formatBytes(r.bytes)}) and ${g.ranges} fetched ranges of Hub logs ` +
      `(${formatBytes(g.bytes)}); the next open reads each log again.`,
  );
  return { ...r, ranges: g.ranges, rangeBytes: g.bytes };
}
