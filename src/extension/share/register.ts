/**
 * Sharing: the URI handler for links, the `rlrb-record:` documents, and the commands of
 * the browser's share buttons and shortcuts (copy link, raw record, export, notebook;
 * next and previous trajectory and turn, group view).
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { BrowserAction } from '../../shared/protocol/trajectories';
import { registerCommands } from '../commands/registry';
import { SHARE_COMMANDS } from '../commands/ids';
import { activeBrowser } from './activeBrowser';
import { parseShareArgs } from './shareArgs';
import type { ShareArgs } from './shareArgs';
import type { ShareActions } from '../panels/panelHost';
import { handleUri } from './openLink';
import { copyLink } from './copyLink';
import { RECORD_SCHEME, openRawRecord, recordProvider } from './rawRecord';
import { exportTrajectories } from './exportCommand';
import { openInNotebook } from './notebookCommand';
import { recordLogsOrigins } from './runOrigin';

/** Asks the active browser to do `action` (a share action comes back as a command with the page's selection). */
function inBrowser(s: Services, action: BrowserAction): void {
  const b = activeBrowser(s);
  if (b) b.act(action);
  else void vscode.window.showInformationMessage('Open the trajectory browser first (RL Runs: Open Trajectories).');
}

/** A share command: with the browser's argument it acts; from the palette or a key it asks the browser for its selection. */
function share(s: Services, action: BrowserAction, run: (a: ShareArgs) => Promise<void>) {
  return (arg?: unknown): Promise<void> | void => {
    const a = parseShareArgs(arg);
    return a ? run(a) : inBrowser(s, action);
  };
}

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  ctx.subscriptions.push(
    vscode.window.registerUriHandler({ handleUri: (uri) => handleUri(s, uri) }),
    vscode.workspace.registerTextDocumentContentProvider(RECORD_SCHEME, recordProvider(s)),
    recordLogsOrigins(ctx.globalState, s.downloads, s.hub),
  );
  const actions: ShareActions = {
    copyLink: (a) => copyLink(s.out, a),
    openRaw: (a) => openRawRecord(s, a),
    export: (a) => exportTrajectories(s, a),
    notebook: (a) => openInNotebook(ctx, s, a),
  };
  s.panels.useShareActions(actions);
  registerCommands(ctx, SHARE_COMMANDS, {
    'rlRunBrowser.copyLink': share(s, 'copyLink', actions.copyLink),
    'rlRunBrowser.openRawRecord': share(s, 'openRaw', actions.openRaw),
    'rlRunBrowser.exportTrajectories': share(s, 'export', actions.export),
    'rlRunBrowser.openInNotebook': share(s, 'notebook', actions.notebook),
    'rlRunBrowser.nextTrajectory': () => inBrowser(s, 'nextTrajectory'),
    'rlRunBrowser.previousTrajectory': () => inBrowser(s, 'previousTrajectory'),
    'rlRunBrowser.nextTurn': () => inBrowser(s, 'nextTurn'),
    'rlRunBrowser.previousTurn': () => inBrowser(s, 'previousTurn'),
    'rlRunBrowser.toggleGroupView': () => inBrowser(s, 'toggleGroup'),
  });
}
