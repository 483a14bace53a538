/**
 * The argument of the share commands (what the browser sends: its run, trajectory, turn and
 * query), checked once here, and the link it names.
 */
import type { TrajectoryQuery } from '../../shared/shapes';
import type { LinkView } from '../../core/links/link';
import type { TrajectoryKey } from '../../shared/protocol';
import { isObj, isQuery, isRow } from '../../shared/protocol';
import { runLink } from './runOrigin';

export interface ShareArgs {
  root: string;
  key: TrajectoryKey | null;
  turn: number | null;
  query: TrajectoryQuery;
}

function keyOf(v: unknown): TrajectoryKey | null {
  return isObj(v) && isRow(v['iteration']) && isRow(v['group']) && isRow(v['rollout'])
    ? { iteration: v['iteration'], group: v['group'], rollout: v['rollout'] }
    : null;
}

/** `{root, key?, turn?, query?}`, else undefined (the command then asks the active browser). */
export function parseShareArgs(arg: unknown): ShareArgs | undefined {
  if (!isObj(arg) || typeof arg['root'] !== 'string' || arg['root'] === '') return undefined;
  const key = keyOf(arg['key']);
  return {
    root: arg['root'],
    key,
    turn: key && isRow(arg['turn']) ? arg['turn'] : null,
    query: isQuery(arg['query']) ? arg['query'] : { filter: {}, sort: [] },
  };
}

/**
 * The link of what the browser shows: its run (an absolute path, or the Hub repo and
 * revision it came from, so it opens from any workspace) and trajectory and turn.
 */
export function shareLink(a: ShareArgs, scheme: string): string {
  const view: LinkView = a.key ? { kind: 'trajectories', ...a.key, ...(a.turn !== null ? { turn: a.turn } : {}) } : { kind: 'run' };
  return runLink(a.root, view, scheme);
}
