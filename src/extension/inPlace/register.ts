/**
 * RL Runs: Open Logs in Place: a Hub repo's logs become a run in the Local runs list (a
 * cloud icon, "on the Hub") without being downloaded. The index is saved in the global
 * storage with the local ones, the ranges fetched under `ranges/`; the run follows the
 * repo's newer commits whenever the Hub tree sees one.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { IN_PLACE_COMMANDS } from '../commands/ids';
import { registerCommands } from '../commands/registry';
import { HubRun } from '../../core/hub/inPlace/hubRun';
import { hubRefText, parseRemembered } from '../../core/hub/inPlace/hubRef';
import type { HubRef } from '../../core/hub/inPlace/hubRef';
import { RangeCache } from '../../core/hub/inPlace/rangeCache';
import { escapeNotification as esc } from '../text';
import { errorMessage } from '../../core/errorMessage';
import { setCommitRead } from '../share/runOrigin';
import { background } from '../background';

/** The fetched ranges of Hub logs, under the global storage's `ranges/`. */
export const rangeCacheOf = (ctx: vscode.ExtensionContext): RangeCache =>
  new RangeCache(vscode.Uri.joinPath(ctx.globalStorageUri, 'ranges').fsPath);

/** The workspace state key of the runs read in place, reopened (from their saved indexes) when the window reloads. */
const REMEMBERED = 'rlRunBrowser.inPlaceRuns';

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  const cache = rangeCacheOf(ctx);
  const open = new Map<string, HubRun>();
  const log = (line: string): void => s.out.error(line);
  setCommitRead((root) => [...open.values()].find((hr) => hr.run.location.root === root)?.commit);
  const remember = (): Thenable<void> =>
    ctx.workspaceState.update(
      REMEMBERED,
      [...open.values()].map((hr) => hubRefText(hr.ref)),
    );
  registerCommands(ctx, IN_PLACE_COMMANDS, {
    'rlRunBrowser.openLogsInPlace': async (node?: unknown) => {
      const repo = await repoOf(s, node);
      const root = repo ? await openLogsInPlace(s, cache, open, { repo, revision: 'main' }) : undefined;
      if (root) await remember();
      return root;
    },
  });
  ctx.subscriptions.push(
    s.hub.onDidChange((repo) => {
      const hr = repo ? open.get(repo) : undefined;
      const commit = repo ? s.hub.state(repo).listing?.commit : undefined;
      if (hr && commit && commit !== hr.commit) background(follow(s, hr), log, `${hubRefText(hr.ref)}: cannot follow the repo`);
    }),
  );
  background(reopenRemembered(ctx, s, cache, open), log, 'cannot open again the Hub logs read in place before');
}

/** Opens again the runs this workspace read in place before the window reloaded (a stored entry is untrusted input). */
async function reopenRemembered(ctx: vscode.ExtensionContext, s: Services, cache: RangeCache, open: Map<string, HubRun>): Promise<void> {
  const { refs, problems } = parseRemembered(ctx.workspaceState.get<unknown>(REMEMBERED), `workspace state ${REMEMBERED}`);
  for (const p of problems) s.out.warn(p);
  for (const ref of refs) await openLogsInPlace(s, cache, open, ref, true);
}

/** The repo of a Hub tree node, a repo id, or one picked from the followed repos. */
async function repoOf(s: Services, node: unknown): Promise<string | undefined> {
  if (typeof node === 'string') return node;
  const r = (node as { repo?: unknown } | undefined)?.repo;
  if (typeof r === 'string') return r;
  const repos = s.settings().repos;
  if (repos.length <= 1) return repos[0];
  return vscode.window.showQuickPick(repos, { placeHolder: 'Open the logs of which Hub repo in place?' });
}

/** Opens `ref` in place (its progress in the status bar when `quiet`: a reopen after a reload); the run's root, or undefined. */
async function openLogsInPlace(
  s: Services,
  cache: RangeCache,
  open: Map<string, HubRun>,
  ref: HubRef,
  quiet = false,
): Promise<string | undefined> {
  const repo = ref.repo;
  const known = open.get(repo);
  if (known) {
    await follow(s, known);
    return known.run.location.root;
  }
  try {
    const conn = await s.hub.connection();
    let hr: HubRun | undefined;
    await vscode.window.withProgress(
      {
        location: quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
        title: `RL Runs: opening the logs of ${esc(repo)} in place…`,
      },
      () =>
        s.runs.addRemote(async (options) => {
          hr = await HubRun.open(ref, { conn, store: s.indexStore, cache, options });
          return hr.run;
        }),
    );
    if (!hr) return undefined;
    open.set(repo, hr);
    s.out.info(
      `${hubRefText(ref)}: opened in place at ${hr.commit.slice(0, 12)} ` +
        `(${hr.use === 'none' ? 'indexed in one pass' : `saved index: ${hr.use}`})`,
    );
    if (hr.savedIndexLine !== undefined) {
      const note = await hr.offlineNote();
      s.out.warn(hr.savedIndexLine);
      void vscode.window.showWarningMessage(`RL Runs: ${esc(hr.savedIndexLine)}.${note ? ` ${esc(note)}` : ''}`);
    }
    return hr.run.location.root;
  } catch (e) {
    const line = `cannot open the logs of ${esc(repo)} in place: ${esc(errorMessage(e))}`;
    if (quiet) s.out.warn(line);
    else void vscode.window.showErrorMessage(`RL Runs: ${line}`);
    return undefined;
  }
}

/** Reads the repo's newer commit: only the new tail when the log grew. */
async function follow(s: Services, hr: HubRun): Promise<void> {
  try {
    const kind = await hr.refresh();
    if (kind !== 'none')
      s.out.info(`${hubRefText(hr.ref)}: commit ${hr.commit.slice(0, 12)}: ${kind === 'grown' ? 'read the new tail' : 'indexed again'}`);
  } catch (e) {
    s.out.warn(`${hubRefText(hr.ref)}: cannot follow the repo: ${errorMessage(e)}`);
  }
}
