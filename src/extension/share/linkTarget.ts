/**
 * What a link's view names, looked up in its run: a link naming an iteration, group,
 * rollout, turn or metric the run does not hold is refused with one line saying which.
 */
import type { TrajectoryQuery } from '../../shared/shapes';
import type { CreditIndex } from '../../core/log/creditIndex';
import type { MetricsIndex } from '../../core/log/metricsIndex';
import { LinkError } from '../../core/links/link';
import type { LinkView } from '../../core/links/link';
import { shown } from '../../core/links/values';
import type { TrajectoryKey } from '../../shared/protocol';

/** Where the browser opens for a link: its query, and the trajectory and turn to show. */
export interface TrajectoriesTarget {
  kind: 'trajectories';
  query: TrajectoryQuery;
  select?: TrajectoryKey;
  /** the selected trajectory's row, and the turn to scroll to */
  row?: number;
  turn?: number;
}

export type LinkTarget = TrajectoriesTarget | { kind: 'metric'; metric: string } | { kind: 'run' };

/** What the lookup needs of a run (a `Run`, or a test's stand-in). */
export interface RunLogs {
  name: string;
  credit: CreditIndex | undefined;
  metrics: MetricsIndex | undefined;
}

function trajectories(run: RunLogs, v: Extract<LinkView, { kind: 'trajectories' }>): TrajectoriesTarget {
  const idx = run.credit;
  const name = shown(run.name);
  if (!idx) throw new LinkError(`run ${name} has no credit log, so no trajectories`);
  if (!idx.iterations().includes(v.iteration)) throw new LinkError(`iteration ${v.iteration} is not in run ${name}`);
  const query: TrajectoryQuery = { filter: { iterationMin: v.iteration, iterationMax: v.iteration }, sort: [] };
  if (v.group === undefined) return { kind: 'trajectories', query };
  if (idx.groupRows(v.iteration, v.group).length === 0)
    throw new LinkError(`group ${v.group} is not in iteration ${v.iteration} of run ${name}`);
  query.filter.group = v.group;
  query.sort = [{ key: 'rollout' }];
  if (v.rollout === undefined) return { kind: 'trajectories', query };
  const row = idx.find(v.iteration, v.group, v.rollout);
  if (row < 0) throw new LinkError(`rollout ${v.rollout} is not in iteration ${v.iteration}, group ${v.group} of run ${name}`);
  const select = { iteration: v.iteration, group: v.group, rollout: v.rollout };
  if (v.turn === undefined) return { kind: 'trajectories', query, select, row };
  const turns = idx.columns.turns[row] ?? 0;
  if (v.turn >= turns)
    throw new LinkError(
      `turn ${v.turn} is not in iteration ${v.iteration} · group ${v.group} · rollout ${v.rollout} of run ${name} (it has ` +
        `${turns} turn${turns === 1 ? '' : 's'}, from 0)`,
    );
  return { kind: 'trajectories', query, select, row, turn: v.turn };
}

/** The target of `view` in `run` (a comparison is the caller's: it needs the other run). Throws LinkError. */
export function linkTarget(run: RunLogs, view: Exclude<LinkView, { kind: 'compare' }>): LinkTarget {
  switch (view.kind) {
    case 'run':
      return { kind: 'run' };
    case 'trajectories':
      return trajectories(run, view);
    case 'metric': {
      if (!run.metrics) throw new LinkError(`run ${shown(run.name)} has no metrics log, so no metric ${shown(view.metric)}`);
      if (!run.metrics.getTable().names.includes(view.metric))
        throw new LinkError(`metric "${shown(view.metric)}" is not in run ${shown(run.name)}`);
      return { kind: 'metric', metric: view.metric };
    }
  }
}
