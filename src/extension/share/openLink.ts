/**
 * The URI handler's work: a link (`vscode://rl-run-browser.rl-run-browser/open?…`) parsed
 * by core, its run found here (a local path, or a Hub repo whose logs were downloaded;
 * if they were not, the user is asked before they are), what it names checked in that
 * run, and the view opened: the browser at a trajectory and turn, the metrics, or a
 * comparison. A link is refused with one line saying why.
 */
import * as vscode from 'vscode';
import { LinkError, parseLink } from '../../core/links/link';
import type { RunLink, RunRef } from '../../core/links/link';
import type { Services } from '../services';
import type { LiveRun } from '../runs/runService';
import { TrajectoriesPanel } from '../trajectories/trajectoriesPanel';
import { MetricsPanel } from '../metrics/metricsPanel';
import { linkTarget } from './linkTarget';
import { linkedRunProblem } from '../../core/links/linkedRun';
import { errorMessage } from '../../core/errorMessage';
import { hubRefText } from '../../core/hub/inPlace/hubRef';
import { escapeNotification as esc } from '../text';
import { downloadLogsRun } from '../downloads/register';

async function localRun(s: Services, path: string): Promise<LiveRun> {
  const open = s.runs.get(path) ?? s.runs.list().find((l) => l.run.location.creditLog === path);
  if (open) return open;
  const problem = await linkedRunProblem(path);
  if (problem !== undefined) throw new LinkError(problem);
  const live = await s.runs.ensure(path);
  if (!live) throw new LinkError(`no RL run at ${path} (no logs/ws_credit_log.jsonl or ws_metrics.jsonl there)`);
  return live;
}

/** The run of a Hub repo read in place or its downloaded logs; asks (never silently) before downloading them. */
async function hubRun(s: Services, repo: string, revision: string): Promise<LiveRun | undefined> {
  const inPlace = s.runs.get(hubRefText({ repo, revision })) ?? s.runs.get(hubRefText({ repo, revision: 'main' }));
  if (inPlace) return inPlace;
  const here = s.destinations.path(repo, 'logs');
  const found = here !== undefined ? await s.runs.ensure(here) : undefined;
  if (found) return found;
  const branch = revision === 'main' ? '' : ` (the download takes the repo's current logs, not revision ${revision})`;
  const pick = await vscode.window.showInformationMessage(
    `The link names ${esc(repo)}, whose logs are not on this machine. Download them from the ` +
      `Hub${here ? ` to ${esc(here)}` : ''}${esc(branch)}?`,
    { modal: true },
    'Download Logs',
  );
  if (pick !== 'Download Logs') return undefined;
  // as "Download Logs and Open" does: the logs, then the run's dashboard
  const fetched = await downloadLogsRun(s, repo, here);
  if (fetched) await s.panels.open('metrics', fetched);
  const dest = s.destinations.path(repo, 'logs');
  const live = dest !== undefined ? await s.runs.ensure(dest) : undefined;
  if (!live) throw new LinkError(`the logs of ${repo} did not arrive; the link is not opened`);
  return live;
}

async function runOf(s: Services, ref: RunRef): Promise<LiveRun | undefined> {
  const live = ref.kind === 'local' ? await localRun(s, ref.path) : await hubRun(s, ref.repo, ref.revision);
  await live?.run.update();
  return live;
}

async function compare(s: Services, a: LiveRun, other: RunRef): Promise<void> {
  const b = await runOf(s, other);
  if (!b) return;
  if (a.run.location.root === b.run.location.root) {
    void vscode.window.showWarningMessage('RL Runs: pick two different runs to compare.');
    return;
  }
  s.panels.openCompare(a.run.location.root, b.run.location.root);
}

/** Opens what `link` names; throws LinkError when the run does not hold it. */
export async function openRunLink(s: Services, link: RunLink): Promise<void> {
  const live = await runOf(s, link.run);
  if (!live) return;
  const root = live.run.location.root;
  if (link.view.kind === 'compare') return compare(s, live, link.view.other);
  const target = linkTarget({ name: live.run.location.name, credit: live.run.credit, metrics: live.run.metrics }, link.view);
  switch (target.kind) {
    case 'run':
      await s.panels.open(live.run.metrics ? 'metrics' : 'trajectories', root);
      return;
    case 'metric': {
      const panel = await s.panels.open('metrics', root);
      if (panel instanceof MetricsPanel) panel.focusMetric(target.metric);
      return;
    }
    case 'trajectories': {
      await s.panels.openTrajectories(root, target.query, 'opened from a link', target.select);
      const panel = s.panels.find('trajectories', root);
      if (panel instanceof TrajectoriesPanel && target.row !== undefined && target.turn !== undefined)
        panel.focusTurn(target.row, target.turn);
    }
  }
}

/** The URI handler: any failure is one line naming the link's problem. */
export async function handleUri(s: Services, uri: vscode.Uri): Promise<void> {
  s.out.info(`link: ${uri.toString(true)}`);
  try {
    await openRunLink(s, parseLink(uri.path, uri.query));
  } catch (e) {
    const msg = e instanceof LinkError ? e.message : `cannot open it: ${errorMessage(e)}`;
    s.out.warn(`link refused: ${msg}`);
    void vscode.window.showErrorMessage(`RL Runs: link refused: ${esc(msg)}`);
  }
}
