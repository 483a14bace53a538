/**
 * The trees as pure data: what children, labels, descriptions and menus a Hub listing
 * or a local run gives. The VS Code providers only adapt these nodes.
 */
import type { IterationInfo, RunListing, CheckpointKind } from '../../core/hub/model';
import type { HubFile } from '../../core/hub/treeEntry';
import type { CreditIndex } from '../../core/log/creditIndex';
import type { IterationSummary } from '../../core/run/iterationSummary';
import type { EvalIteration, EvalSummary } from '../../core/eval/evalFigures';
import type { Conclusion } from '../../core/eval/verdict';
import { conclusionLabel } from '../../core/eval/verdictWords';
import type { PanelCommandId } from '../commands/ids';
import { formatBytes, formatPercent, formatCredit, formatFigure, formatPlain, formatRate, plural } from '../../shared/format';
import { kindNoun, problemCounts } from '../problems/dataProblems';
import type { IntegrityCheck } from '../../core/integrity/types';
import { hfIntegrityView, latestWarning, resumeIntegrityView } from './integrityPresenter';
import type { IntegrityView } from './integrityPresenter';
import type { RunProblems } from '../problems/dataProblems';

export interface TreeNode {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  /** codicon name */
  icon: string;
  contextValue: string;
  collapsible: boolean;
  /** command id and arguments run on selection */
  command?: { id: PanelCommandId | 'rlRunBrowser.downloadResume'; args: unknown[] };
}

// ---- Hub

/** `check`: the local copy's own section 9 state (a downloaded resume checkpoint), when it was checked. */
export type LocalState = { state: 'complete'; check?: IntegrityView } | { state: 'partial'; percent: number } | { state: 'absent' };

export type HubNode =
  | (TreeNode & { kind: 'repo'; repo: string })
  | (TreeNode & { kind: 'folder'; repo: string; folder: CheckpointKind | 'logs' })
  | (TreeNode & { kind: 'iteration'; repo: string; folder: CheckpointKind; iteration: number })
  | (TreeNode & { kind: 'file'; repo: string; path: string })
  | (TreeNode & { kind: 'message'; repo: string });

export function hubRepoNode(repo: string, listing: RunListing | undefined, error: string | undefined, loading: boolean): HubNode {
  const description = error
    ? 'error'
    : loading && !listing
      ? 'loading…'
      : listing
        ? `${listing.resume.length} resume · ${listing.hf.length} hf · ${formatBytes(listing.totalBytes)}`
        : '';
  return {
    kind: 'repo',
    repo,
    id: `hub:${repo}`,
    label: repo,
    description,
    tooltip:
      error ??
      (listing
        ? `${repo} @ ${listing.commit.slice(0, 12)}${listing.latest !== null ? `\nlatest checkpointed iteration: ${listing.latest}` : ''}`
        : repo),
    icon: error ? 'warning' : 'repo',
    contextValue: 'hubRepo',
    collapsible: true,
  };
}

export function hubRepoChildren(
  repo: string,
  listing: RunListing | undefined,
  error: string | undefined,
  integrity?: IntegrityCheck,
): HubNode[] {
  if (error)
    return [
      { kind: 'message', repo, id: `hub:${repo}:error`, label: error, icon: 'error', contextValue: 'hubMessage', collapsible: false },
    ];
  if (!listing) return [];
  const folder = (f: CheckpointKind | 'logs', count: number, bytes: number): HubNode => ({
    kind: 'folder',
    repo,
    folder: f,
    id: `hub:${repo}:${f}`,
    label: f,
    description: `${count} ${f === 'logs' ? 'files' : 'iterations'} · ${formatBytes(bytes)}`,
    icon: f === 'resume' ? 'debug-restart' : f === 'hf' ? 'package' : 'output',
    contextValue: `hubFolder+${f}`,
    collapsible: true,
  });
  return [
    // before the folders: the one thing here that says the launcher would resume from a broken checkpoint
    ...latestWarningNodes(repo, integrity),
    folder(
      'resume',
      listing.resume.length,
      listing.resume.reduce((s, i) => s + i.bytes, 0),
    ),
    folder(
      'hf',
      listing.hf.length,
      listing.hf.reduce((s, i) => s + i.bytes, 0),
    ),
    folder(
      'logs',
      listing.logs.length,
      listing.logs.reduce((s, f) => s + f.size, 0),
    ),
    ...listingWarnings(repo, listing.warnings),
  ];
}

/** Latest naming an incomplete checkpoint: a warning naming the last complete one, which a click downloads. */
function latestWarningNodes(repo: string, integrity: IntegrityCheck | undefined): HubNode[] {
  const w = integrity ? latestWarning(integrity.report) : undefined;
  if (!w) return [];
  return [
    {
      kind: 'message',
      repo,
      id: `hub:${repo}:latest-incomplete`,
      label: w.label,
      description: w.description,
      tooltip:
        w.offer === null
          ? w.tooltip
          : `${w.tooltip}
Click to download iteration ${w.offer}.`,
      icon: w.icon,
      contextValue: 'hubMessage+latestIncomplete',
      collapsible: false,
      ...(w.offer === null
        ? {}
        : { command: { id: 'rlRunBrowser.downloadResume', args: [{ kind: 'iteration', repo, folder: 'resume', iteration: w.offer }] } }),
    },
  ];
}

/** An iteration's section 9 state, when the repo's check has come back. */
export function iterationIntegrity(integrity: IntegrityCheck | undefined, it: IterationInfo): IntegrityView | undefined {
  const key = it.dir.slice(it.kind.length + 1);
  if (!integrity) return undefined;
  const files = integrity.files[it.kind][key] ?? [];
  if (it.kind === 'resume') {
    const c = integrity.report.resume[key];
    return c ? resumeIntegrityView(c, files) : undefined;
  }
  const c = integrity.report.hf[key];
  return c ? hfIntegrityView(c, files) : undefined;
}

/** At most this many warning rows under a repo; the rest are counted in the last one. */
const MAX_WARNING_ROWS = 20;

/** What the listing left out or found odd (refused tree entries, left-out folders), one row each, never hidden. */
function listingWarnings(repo: string, warnings: readonly string[]): HubNode[] {
  const row = (label: string, i: number, tooltip: string): HubNode => ({
    kind: 'message',
    repo,
    id: `hub:${repo}:warning:${i}`,
    label,
    tooltip,
    icon: 'warning',
    contextValue: 'hubMessage',
    collapsible: false,
  });
  const shown = warnings.slice(0, MAX_WARNING_ROWS).map((w, i) => row(w, i, w));
  const more = warnings.length - shown.length;
  if (more > 0)
    shown.push(
      row(`${more} more warnings (rlrb hub ls ${repo} lists them all)`, MAX_WARNING_ROWS, warnings.slice(MAX_WARNING_ROWS).join('\n')),
    );
  return shown;
}

/** The checkpoint verdict against the baseline per evaluated iteration (docs/format.md section 8), in core's words. */
export interface HubVerdict {
  /** the baseline's name */
  baseline: string;
  at: ReadonlyMap<number, { conclusion: Conclusion; words: string }>;
}

/** "eval 0.533 on 274 tasks": a checkpoint's eval success (docs/format.md section 8) as the tree shows it beside the checkpoint. */
export function evalWords(e: EvalIteration): string {
  return `eval ${formatRate(e.success, 3)} on ${plural(e.tasks, 'task')}`;
}

/**
 * An iteration of a Hub listing. `latestHere`: the latest file of the local destination
 * names this iteration (the one the launcher would resume from there). `evaluation`: the
 * repo's eval log's figures at this iteration, when it has them.
 */
export function hubIterationNode(
  repo: string,
  it: IterationInfo,
  local: LocalState,
  latestHere = false,
  evaluation?: EvalIteration,
  integrity?: IntegrityView,
  verdict?: { baseline: string; conclusion: Conclusion; words: string },
): HubNode {
  const localCheck = local.state === 'complete' ? local.check : undefined;
  const state =
    local.state === 'complete'
      ? `downloaded${localCheck && localCheck.state !== 'complete' ? ` but ${localCheck.description}` : ''}`
      : local.state === 'partial'
        ? `partial ${formatPercent(local.percent / 100, 0)}`
        : '';
  // latest here first: the check icon already says downloaded, and the sidebar cuts the end
  const where = [latestHere ? 'latest here' : '', state].filter(Boolean).join(', ');
  return {
    kind: 'iteration',
    repo,
    folder: it.kind,
    iteration: it.iteration,
    id: `hub:${repo}:${it.kind}:${it.iteration}`,
    label: `${it.dir.slice(it.kind.length + 1)}${it.isLatest ? ' ★' : ''}`,
    // the local state first: at the sidebar's default width the end of a description is cut
    description: [
      where,
      integrity?.description ?? '',
      evaluation ? evalWords(evaluation) : '',
      verdict ? `verdict: ${conclusionLabel(verdict.conclusion)}` : '',
      formatBytes(it.bytes),
      `${it.files.length} files`,
    ]
      .filter(Boolean)
      .join(' · '),
    tooltip:
      `${it.dir}\n${it.files.length} files, ` +
      `${formatBytes(it.bytes)}${it.isLatest ? '\nnamed by latest_checkpointed_iteration.txt' : ''}` +
      `${evaluation ? `\n${evalWords(evaluation)} (${plural(evaluation.samples, 'episode')}, logs/eval_log.jsonl)` : ''}` +
      `${verdict ? `\n\nVerdict against the baseline (A = this repo, B = ${verdict.baseline}):\n${verdict.words}` : ''}` +
      `${state ? `\nlocal copy: ${state}` : ''}` +
      `${latestHere ? '\nthe local latest_checkpointed_iteration.txt names this iteration' : ''}` +
      `${integrity ? `\n\n${integrity.tooltip}` : ''}` +
      `${localCheck ? `\n\nlocal copy: ${localCheck.tooltip}` : ''}`,
    // a checkpoint that is not whole on the Hub says so before anything else
    icon:
      integrity && integrity.state !== 'complete'
        ? integrity.icon
        : localCheck && localCheck.state !== 'complete'
          ? localCheck.icon
          : local.state === 'complete'
            ? 'pass-filled'
            : local.state === 'partial'
              ? 'cloud-download'
              : it.isLatest
                ? 'star-full'
                : 'cloud',
    contextValue: `hubIteration+${it.kind}${it.isLatest ? '+latest' : ''}+${local.state}${latestHere ? '+latestHere' : ''}`,
    collapsible: true,
  };
}

export function hubFolderChildren(
  repo: string,
  listing: RunListing,
  folder: CheckpointKind | 'logs',
  local: (it: IterationInfo) => LocalState,
  /** what the local destination's latest file names (resume only), null when nothing readable */
  localLatest: number | null = null,
  /** the repo's checkpoint evaluations at the listing's commit, when its logs have them */
  evals?: EvalSummary,
  integrity?: IntegrityCheck,
  /** the verdict against the baseline, when one is set */
  verdict?: HubVerdict,
): HubNode[] {
  if (folder === 'logs') return listing.logs.map((f) => hubFileNode(repo, f, 'logs/'));
  const at = new Map((evals?.iterations ?? []).map((e) => [e.iteration, e]));
  return listing[folder]
    .slice()
    .reverse()
    .map((it) =>
      hubIterationNode(
        repo,
        it,
        local(it),
        folder === 'resume' && it.iteration === localLatest,
        at.get(it.iteration),
        iterationIntegrity(integrity, it),
        verdictAt(verdict, it.iteration),
      ),
    );
}

function verdictAt(v: HubVerdict | undefined, iteration: number): { baseline: string; conclusion: Conclusion; words: string } | undefined {
  const x = v?.at.get(iteration);
  return v && x ? { baseline: v.baseline, ...x } : undefined;
}

export function hubFileNode(repo: string, f: HubFile, prefix: string): HubNode {
  return {
    kind: 'file',
    repo,
    path: f.path,
    id: `hub:${repo}:file:${f.path}`,
    label: f.path.slice(prefix.length),
    description: formatBytes(f.size),
    tooltip: `${f.path}\n${f.size} bytes\n${f.lfsSha256 ? `sha256 ${f.lfsSha256}` : `git ${f.oid}`}`,
    icon: 'file-binary',
    contextValue: f.path.startsWith('logs/') ? 'hubLogFile' : 'hubFile',
    collapsible: false,
  };
}

// ---- local runs

export type RunNode =
  | (TreeNode & { kind: 'run'; root: string })
  | (TreeNode & { kind: 'metrics' | 'report' | 'iterations' | 'schema' | 'evaluations'; root: string })
  | (TreeNode & { kind: 'evalCheckpoint'; root: string; iteration: number })
  | (TreeNode & { kind: 'iteration'; root: string; iteration: number })
  | (TreeNode & { kind: 'group'; root: string; iteration: number; group: number })
  | (TreeNode & { kind: 'trajectory'; root: string; iteration: number; group: number; rollout: number; row: number });

/** A run's data problems as its tree row shows them. */
export interface ProblemBadge {
  total: number;
  /** "2 skipped lines", one a kind */
  kinds: string[];
}

export function problemBadge(p: RunProblems): ProblemBadge | undefined {
  return p.total > 0 ? { total: p.total, kinds: problemCounts(p).map((c) => kindNoun(c.kind, c.count)) } : undefined;
}

export function runNode(
  root: string,
  name: string,
  index: CreditIndex | undefined,
  iterations: number,
  progress: number | undefined,
  /** where the logs are when they are not local files (e.g. "on the Hub") */
  remote?: string,
  problems?: ProblemBadge,
): RunNode {
  const figures = index
    ? `${index.size} trajectories · ${iterations} ` +
      `iterations${progress !== undefined && progress < 1 ? ` · indexing ${formatPercent(progress, 0)}` : ''}`
    : 'metrics only';
  const badge = problems ? `${problems.total} data problem${problems.total === 1 ? '' : 's'}` : undefined;
  return {
    kind: 'run',
    root,
    id: `run:${root}`,
    label: name,
    description: [badge, remote, figures].filter((p) => p !== undefined && p !== '').join(' · '),
    tooltip: problems
      ? `${root}\n\n${badge}:\n${problems.kinds.map((k) => `- ${k}`).join('\n')}\nEach is listed at its line in the Problems ` +
        `panel (View > Problems).`
      : root,
    // a run on the Hub keeps its cloud (its badge is in the description and the tooltip)
    icon: remote ? 'cloud' : problems ? 'warning' : 'graph-line',
    contextValue: 'localRun',
    collapsible: true,
  };
}

/** `hasEvals`: the run has an evaluation log (docs/format.md section 8): an "Evaluations" node after the iterations. */
export function runChildren(root: string, hasCredit: boolean, hasMetrics: boolean, hasEvals = false): RunNode[] {
  const out: RunNode[] = [];
  if (hasMetrics)
    out.push({
      kind: 'metrics',
      root,
      id: `run:${root}:metrics`,
      label: 'Metrics',
      icon: 'graph',
      contextValue: 'runMetrics',
      collapsible: false,
      command: { id: 'rlRunBrowser.openMetrics', args: [root] },
    });
  if (hasCredit) {
    out.push({
      kind: 'report',
      root,
      id: `run:${root}:report`,
      label: 'Run report',
      icon: 'checklist',
      contextValue: 'runReport',
      collapsible: false,
      command: { id: 'rlRunBrowser.openReport', args: [root] },
    });
    out.push({
      kind: 'iterations',
      root,
      id: `run:${root}:iterations`,
      label: 'Iterations',
      icon: 'list-tree',
      contextValue: 'runIterations',
      collapsible: true,
    });
  }
  if (hasEvals)
    out.push({
      kind: 'evaluations',
      root,
      id: `run:${root}:evals`,
      label: 'Evaluations',
      tooltip: "the checkpoint evaluations (the evaluation log): each checkpoint's eval episodes open in the trajectory browser",
      icon: 'beaker',
      contextValue: 'runEvaluations',
      collapsible: true,
    });
  return out;
}

/** One node per evaluated checkpoint, in iteration order: "iter 39", "0.533 on 274 tasks"; a click opens its episodes in the browser. */
export function evalCheckpointNodes(root: string, summary: EvalSummary): RunNode[] {
  return summary.iterations.map((e) => ({
    kind: 'evalCheckpoint',
    root,
    iteration: e.iteration,
    id: `run:${root}:evals:${e.iteration}`,
    label: `iter ${e.iteration}`,
    description: `${formatPlain(e.success, 3)} on ${plural(e.tasks, 'task')} · ${plural(e.samples, 'episode')}`,
    tooltip:
      `checkpoint evaluation of iteration ${e.iteration}\nsuccess ${formatPlain(e.success, 4)} (the mean over tasks of the share of ` +
      `their episodes with reward > 0) on ${plural(e.tasks, 'task')}\n${plural(e.samples, 'episode')}, mean reward ` +
      `${formatPlain(e.reward, 4)}\nClick: its episodes in the trajectory browser`,
    icon: 'beaker',
    contextValue: 'runEvalCheckpoint',
    collapsible: false,
    command: { id: 'rlRunBrowser.openTrajectories', args: [{ root, filter: { evalIteration: e.iteration } }] },
  }));
}

export function iterationNodes(root: string, its: Map<number, IterationSummary>): RunNode[] {
  return [...its.values()]
    .sort((a, b) => a.iteration - b.iteration)
    .map((s) => ({
      kind: 'iteration',
      root,
      iteration: s.iteration,
      id: `run:${root}:it:${s.iteration}`,
      label: `iteration ${s.iteration}`,
      description: `${s.trajectories} traj · reward ${formatFigure(s.rewardMean, 3)} · ${s.labeled} labeled`,
      tooltip:
        `iteration ${s.iteration}\n${plural(s.trajectories, 'trajectory', 'trajectories')} ` +
        `in ${plural(s.groups.size, 'group')}\nreward mean ` +
        `${formatFigure(s.rewardMean, 4)}\n${s.labeled} labeled`,
      icon: 'symbol-number',
      contextValue: 'runIteration',
      collapsible: true,
      command: { id: 'rlRunBrowser.openTrajectories', args: [{ root, filter: { iterationMin: s.iteration, iterationMax: s.iteration } }] },
    }));
}

export function groupNodes(root: string, index: CreditIndex, s: IterationSummary): RunNode[] {
  const c = index.columns;
  return [...s.groups]
    .sort((a, b) => a[0] - b[0])
    .map(([g, rows]) => ({
      kind: 'group',
      root,
      iteration: s.iteration,
      group: g,
      id: `run:${root}:it:${s.iteration}:g:${g}`,
      label: `group ${g}`,
      description: `rewards ${rows.map((r) => formatFigure(c.reward[r], 0).replace('+', '')).join(' ')}`,
      icon: 'symbol-array',
      contextValue: 'runGroup',
      collapsible: true,
    }));
}

export function trajectoryNodes(root: string, index: CreditIndex, iteration: number, group: number, rows: number[]): RunNode[] {
  return rows.map((r) => {
    const t = index.row(r);
    return {
      kind: 'trajectory',
      root,
      iteration,
      group,
      rollout: t.rollout,
      row: r,
      id: `run:${root}:it:${iteration}:g:${group}:r:${t.rollout}`,
      label: `rollout ${t.rollout}${t.labeled ? ' ●' : ''}`,
      description: `R ${formatFigure(t.reward, 0)} · A ${formatFigure(t.A, 2)} · c̄ ${formatFigure(t.meanC, 3)}`,
      tooltip:
        `iteration ${iteration}, group ${group}, rollout ${t.rollout} (line ${t.line})\nreward ${t.reward}, A ` +
        `${t.A}\n${plural(t.turns, 'turn')}, ${t.labeledTurns} ` +
        `labeled${t.meanC !== null ? `\nmean c ${formatCredit(t.meanC)}` : ''}` +
        `${t.signFlips ? `\n${plural(t.signFlips, 'sign flip')}` : ''}`,
      icon: t.reward > 0 ? 'pass' : t.reward < 0 ? 'error' : 'circle-slash',
      contextValue: 'runTrajectory',
      collapsible: false,
      command: { id: 'rlRunBrowser.openTrajectories', args: [{ root, iteration, group, rollout: t.rollout }] },
    };
  });
}
