/**
 * RL Runs: Follow Run / Stop Following Run / Show Open Alerts: a run watched while it trains
 * (docs/format.md section 10). The context key `rlRunBrowser.followingRuns` and the Local runs
 * rows' context value say which of the commands applies.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { LIVE_COMMANDS } from '../commands/ids';
import { registerCommands } from '../commands/registry';
import { pickRun } from '../runs/pickRun';
import { parseRunArg } from '../commandArgs';
import { FollowedRuns } from './followedRuns';
import { background } from '../background';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  const followed = new FollowedRuns(s, ctx.workspaceState);
  ctx.subscriptions.push(followed);
  registerCommands(ctx, LIVE_COMMANDS, {
    'rlRunBrowser.followRun': async (arg?: unknown) => {
      const root = await pickRun(s.runs, arg);
      if (root) await followed.follow(root);
    },
    'rlRunBrowser.unfollowRun': async (arg?: unknown) => {
      const roots = followed.roots();
      const given = parseRunArg(arg);
      const root =
        given ?? (roots.length <= 1 ? roots[0] : await vscode.window.showQuickPick(roots, { placeHolder: 'Stop following which run?' }));
      if (root) await followed.unfollow(root);
    },
    'rlRunBrowser.showFollowedRunAlerts': async (arg?: unknown) => {
      const roots = followed.roots();
      const root =
        parseRunArg(arg) ??
        (roots.length <= 1 ? roots[0] : await vscode.window.showQuickPick(roots, { placeHolder: 'The alerts of which followed run?' }));
      if (root) await followed.showAlerts(root);
    },
  });
  const sync = (): void => {
    background(
      vscode.commands.executeCommand('setContext', 'rlRunBrowser.followingRuns', followed.roots().length > 0),
      (line) => s.out.error(line),
      'cannot show which follow commands apply',
    );
    s.trees.runs.setFollowed(new Set(followed.roots()));
  };
  ctx.subscriptions.push(followed.onDidChange(sync));
  background(
    s.runs.scanned().then(() => followed.restore()),
    (line) => s.out.error(line),
    'cannot follow again the runs followed before',
  );
}
