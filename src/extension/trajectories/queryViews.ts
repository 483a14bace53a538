/**
 * The trajectory query between the wire and the engine. Both are one shape
 * (`TrajectoryQuery`, src/shared/shapes.ts); what this file adds is the check of a query
 * that came from outside: only the known fields and sort keys pass, undefined fields dropped.
 */
import type { TrajectoryFilter, TrajectoryQuery, TrajectorySort } from '../../shared/shapes';
import { SORT_KEYS } from '../../shared/shapes';

/** The object without its undefined fields (so that it compares and serializes as it was written). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The filter's known fields, copied by name (a command argument may carry others). */
export function copyFilter(f: TrajectoryFilter): TrajectoryFilter {
  return defined<TrajectoryFilter>({
    iterationMin: f.iterationMin,
    iterationMax: f.iterationMax,
    group: f.group,
    rollout: f.rollout,
    reward: f.reward,
    labeledOnly: f.labeledOnly,
    flags: f.flags,
    gate: f.gate,
    text: f.text,
    tags: f.tags && f.tags.length > 0 ? [...f.tags] : undefined,
    evalIteration: f.evalIteration,
    evalTask: f.evalIteration !== undefined ? f.evalTask : undefined,
  });
}

/** A sort key with its direction, `descending` only when true. */
function sortOf(key: TrajectorySort['key'], descending: boolean | undefined): TrajectorySort {
  return { key, ...(descending ? { descending: true } : {}) };
}

/**
 * The engine's query for a wire query. Sort keys it does not know are dropped: a query
 * may come from a command argument, which is checked less strictly than a webview message.
 */
export function querySpec(q: TrajectoryQuery): TrajectoryQuery {
  const sort: TrajectorySort[] = [];
  for (const s of q.sort) if ((SORT_KEYS as readonly string[]).includes(s.key)) sort.push(sortOf(s.key, s.descending));
  return { filter: copyFilter(q.filter), sort };
}
