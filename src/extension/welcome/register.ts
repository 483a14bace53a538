/** The walkthrough (*Get started with RL Run Browser*) opens by itself once, on the extension's first activation, beside the RL Runs view. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { firstRun } from './firstRun';
import { background } from '../background';

export const WALKTHROUGH_ID = 'rl-run-browser.rl-run-browser#getStarted';
/** The activity bar's RL Runs container (package.json viewsContainers). */
const VIEW_CONTAINER = 'rlRunBrowser';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  const settings = {
    openOnFirstRun: vscode.workspace.getConfiguration('rlRunBrowser.walkthrough').get<boolean>('openOnFirstRun', true),
    openOnInstall: vscode.workspace.getConfiguration('workbench.welcomePage.walkthroughs').get<boolean>('openOnInstall', true),
  };
  const opened = firstRun(ctx.globalState, settings).then(async (open) => {
    if (!open) return;
    s.out.info('first activation: showing the runs and opening the walkthrough');
    // the side bar shows the runs the walkthrough talks about (a fresh window shows the Explorer)
    await vscode.commands.executeCommand(`workbench.view.extension.${VIEW_CONTAINER}`);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  });
  background(opened, (line) => s.out.error(line), 'cannot open the walkthrough');
}
