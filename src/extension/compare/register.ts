/**
 * Choosing two runs to compare: two selected in the Local runs tree, "Compare with…" on
 * one, the palette's two picks, or `rlRunBrowser.compareRuns(runA, runB)` with two run
 * root paths (a link calls it so). A followed Hub repo may be either side: its logs are
 * downloaded into a run folder first, the way "Download Logs and Open" does.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { parseHubNode, parseRunArg } from '../commandArgs';
import { registerCommands } from '../commands/registry';
import { COMPARE_COMMANDS } from '../commands/ids';
import { downloadLogsRun } from '../downloads/register';
import { escapeNotification as esc } from '../text';
import { background } from '../background';
import { hubRefText } from '../../core/hub/inPlace/hubRef';
import { sideChoices, sidePick } from './sides';
import type { SideChoice } from './sides';

/** A run root named by an argument, opened in the run service if it is not yet: its root, or undefined with a message. */
async function runFromArg(s: Services, arg: unknown): Promise<string | undefined> {
  const root = parseRunArg(arg);
  if (!root) return undefined;
  const live = await s.runs.ensure(root);
  if (!live) void vscode.window.showWarningMessage(`RL Runs: no run at ${esc(root)} (no logs/ws_credit_log.jsonl there).`);
  return live?.run.location.root;
}

/**
 * Asks for one side: a local run (not `except`) or a followed Hub repo, whose logs are then downloaded.
 * The repos are listed again while the pick is open: one whose Hub has gone since its last listing
 * leaves the list, and the title says why (a separator at the end of a quick pick is never shown).
 */
async function pickSide(s: Services, placeHolder: string, except?: string): Promise<string | undefined> {
  await s.runs.scan();
  const repos = s.settings().repos;
  const choices = (): SideChoice[] =>
    sideChoices(
      s.runs.list().map((l) => ({ name: l.run.location.name, root: l.run.location.root })),
      repos,
      (repo) => s.hub.state(repo).error,
      except,
    );
  const first = choices();
  if (repos.length === 0 && !first.some((c) => c.root !== undefined)) {
    void vscode.window.showWarningMessage('RL Runs: no other run to compare with: open a folder with logs, or follow a Hub repo.');
    return undefined;
  }
  const qp = vscode.window.createQuickPick<SideChoice>();
  qp.placeholder = placeHolder;
  qp.matchOnDescription = true;
  let shown = sidePick(first);
  qp.items = shown.rows;
  qp.title = shown.title;
  qp.busy = repos.length > 0;
  let open = true;
  const pick = new Promise<SideChoice | undefined>((res) => {
    qp.onDidAccept(() => res(qp.selectedItems[0]));
    qp.onDidHide(() => res(undefined));
  });
  qp.show();
  const relisted = Promise.all(repos.map((r) => s.hub.refresh(r))).then(() => {
    if (!open) return;
    qp.busy = false;
    const now = sidePick(choices());
    // the rows are set again only when they changed: setting them moves the highlight back to the first
    if (JSON.stringify(now) === JSON.stringify(shown)) return;
    shown = now;
    qp.items = now.rows;
    qp.title = now.title;
  });
  background(relisted, (line) => s.out.warn(line), 'cannot list the followed repos again');
  const picked = await pick;
  open = false;
  qp.dispose();
  if (!picked) return undefined;
  if (picked.root !== undefined) return picked.root;
  return picked.repo !== undefined ? downloadLogsRun(s, picked.repo) : undefined;
}

/** A Hub repo's run: its logs read in place, or downloaded before, or (asking where) downloaded now. */
async function repoRun(s: Services, repo: string): Promise<string | undefined> {
  const inPlace = s.runs.get(hubRefText({ repo, revision: 'main' }));
  if (inPlace) return inPlace.run.location.root;
  const here = s.destinations.path(repo, 'logs');
  const found = here !== undefined ? await s.runs.ensure(here) : undefined;
  return found?.run.location.root ?? downloadLogsRun(s, repo);
}

/** The run nodes of a multi-selection in the Local runs tree (the command gets the clicked node and the selection). */
function selectedRuns(clicked: unknown, selection: unknown): string[] {
  const nodes = Array.isArray(selection) && selection.length > 0 ? selection : [clicked];
  const roots = nodes
    .filter((n): n is { kind: string; root: string } => !!n && typeof n === 'object' && (n as { kind?: unknown }).kind === 'run')
    .map((n) => parseRunArg(n))
    .filter((r): r is string => r !== undefined);
  return [...new Set(roots)];
}

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  const compare = async (a: string | undefined, b: string | undefined): Promise<void> => {
    if (!a || !b) return;
    if (a === b) {
      void vscode.window.showWarningMessage('RL Runs: pick two different runs to compare.');
      return;
    }
    s.panels.openCompare(a, b);
  };
  registerCommands(ctx, COMPARE_COMMANDS, {
    'rlRunBrowser.compareRuns': async (runA?: unknown, runB?: unknown) => {
      const a = (await runFromArg(s, runA)) ?? (runA === undefined ? await pickSide(s, 'Compare: run A (the run under test)') : undefined);
      if (!a) return;
      const b = (await runFromArg(s, runB)) ?? (runB === undefined ? await pickSide(s, 'Compare: run B (the baseline)', a) : undefined);
      await compare(a, b);
    },
    'rlRunBrowser.compareSelected': async (clicked?: unknown, selection?: unknown) => {
      const roots = selectedRuns(clicked, selection ?? s.trees.runView.selection);
      if (roots.length !== 2) {
        void vscode.window.showInformationMessage(`RL Runs: select exactly two runs in Local runs to compare (${roots.length} selected).`);
        return;
      }
      await compare(await runFromArg(s, roots[0]), await runFromArg(s, roots[1]));
    },
    'rlRunBrowser.compareWith': async (clicked?: unknown, selection?: unknown) => {
      // a Hub repo right-clicked: its logs are side A
      const node = parseHubNode(clicked);
      if (node?.kind === 'repo') {
        const a = await repoRun(s, node.repo);
        if (a) await compare(a, await pickSide(s, `Compare ${node.repo} with…`, a));
        return;
      }
      // the run right-clicked; else the one run selected in Local runs (the menu item shows only for one)
      const selected = selectedRuns(clicked, selection ?? s.trees.runView.selection);
      const a =
        (await runFromArg(s, clicked)) ??
        (selected.length === 1 ? await runFromArg(s, selected[0]) : undefined) ??
        (await pickSide(s, 'Compare: run A (the run under test)'));
      if (!a) return;
      await compare(a, await pickSide(s, `Compare ${a} with…`, a));
    },
  });
}
