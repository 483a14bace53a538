/** RL Runs: Follow Run / Stop Following Run: a run watched while it trains (docs/format.md section 10). */
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
  });
  background(
    s.runs.scanned().then(() => followed.restore()),
    (line) => s.out.error(line),
    'cannot follow again the runs followed before',
  );
}
