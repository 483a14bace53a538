/** Parsing of command arguments, so that a webview, a link or a test can call commands. */
import type { TrajectoryFilter, TrajectoryQuery, TrajectorySort } from '../shared/shapes';
import type { HubNode, TreeNode } from './trees/treeModel';

export interface OpenTrajectoriesArgs extends Partial<TrajectoryQuery> {
  root?: string;
  label?: string;
  select?: { iteration: number; group: number; rollout: number };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** A run root from a string, a tree node ({root}) or a URI-like ({fsPath}). */
export function parseRunArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg.trim()) return arg;
  if (arg && typeof arg === 'object') {
    const o = arg as Record<string, unknown>;
    if (typeof o['root'] === 'string') return o['root'];
    if (typeof o['fsPath'] === 'string') return o['fsPath'];
  }
  return undefined;
}

/**
 * `{root?, iteration?, group?, rollout?, filter?, sort?}`: iteration, group and rollout
 * together open one trajectory; iteration alone (or with a filter) narrows the table.
 */
export function parseOpenTrajectoriesArgs(arg: unknown): OpenTrajectoriesArgs {
  if (!arg || typeof arg !== 'object') return typeof arg === 'string' ? { root: arg } : {};
  const o = arg as Record<string, unknown>;
  const out: OpenTrajectoriesArgs = {};
  if (typeof o['root'] === 'string') out.root = o['root'];
  const filter: TrajectoryFilter = {};
  const f = o['filter'];
  if (f && typeof f === 'object') {
    const fo = f as Record<string, unknown>;
    for (const k of ['iterationMin', 'iterationMax', 'group', 'rollout', 'flags'] as const) if (isInt(fo[k])) filter[k] = fo[k];
    if (fo['reward'] === 'success' || fo['reward'] === 'failure' || fo['reward'] === 'format') filter.reward = fo['reward'];
    if (typeof fo['labeledOnly'] === 'boolean') filter.labeledOnly = fo['labeledOnly'];
    if (typeof fo['gate'] === 'boolean') filter.gate = fo['gate'];
    if (typeof fo['text'] === 'string') filter.text = fo['text'];
    // the eval source (a tree's checkpoint, the verdict's task)
    if (isInt(fo['evalIteration'])) filter.evalIteration = fo['evalIteration'];
    if (isInt(fo['evalIteration']) && typeof fo['evalTask'] === 'string') filter.evalTask = fo['evalTask'];
  }
  if (isInt(o['iteration'])) {
    filter.iterationMin ??= o['iteration'];
    filter.iterationMax ??= o['iteration'];
  }
  if (isInt(o['iteration']) && isInt(o['group']) && isInt(o['rollout'])) {
    out.select = { iteration: o['iteration'], group: o['group'], rollout: o['rollout'] };
    filter.group ??= o['group'];
  }
  if (Object.keys(filter).length > 0) out.filter = filter;
  if (Array.isArray(o['sort']))
    out.sort = o['sort'].filter((s): s is TrajectorySort => !!s && typeof s === 'object' && typeof (s as TrajectorySort).key === 'string');
  if (typeof o['label'] === 'string') out.label = o['label'];
  return out;
}

type WithoutView<T> = T extends unknown ? Omit<T, keyof TreeNode> : never;

/** What a Hub tree node says about what it stands for; a test or a link may pass just this. */
export type HubNodeArg = WithoutView<HubNode>;

const REPO_ID = /^[\w.-]+\/[\w.-]+$/;

/**
 * A Hub tree node from a command argument (a tree item, a test, a link), its shape checked
 * once here: anything else (no repo id, an unknown kind or folder, a non-integer iteration)
 * is undefined, so that the command asks instead.
 */
export function parseHubNode(arg: unknown): HubNodeArg | undefined {
  if (!arg || typeof arg !== 'object' || Array.isArray(arg)) return undefined;
  const o = arg as Record<string, unknown>;
  const repo = o['repo'];
  if (typeof repo !== 'string' || !REPO_ID.test(repo)) return undefined;
  const folder = o['folder'];
  const iteration = o['iteration'];
  switch (o['kind']) {
    case 'repo':
    case 'message':
      return { kind: o['kind'], repo };
    case 'folder':
      return folder === 'resume' || folder === 'hf' || folder === 'logs' ? { kind: 'folder', repo, folder } : undefined;
    case 'iteration':
      return (folder === 'resume' || folder === 'hf') && Number.isSafeInteger(iteration) && (iteration as number) >= 0
        ? { kind: 'iteration', repo, folder, iteration: iteration as number }
        : undefined;
    case 'file':
      return typeof o['path'] === 'string' ? { kind: 'file', repo, path: o['path'] } : undefined;
    default:
      return undefined;
  }
}
