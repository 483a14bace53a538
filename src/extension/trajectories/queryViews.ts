/**
 * The trajectory query between the wire and the engine: the one place that knows both
 * `QueryView` (src/shared/protocol.ts) and core's `QuerySpec`. The two spell their fields
 * and sort keys alike; each direction below assigns one type to the other, so the compiler
 * points at this file when they disagree.
 */
import type { FilterView, QueryView, SortView } from '../../shared/protocol';
import type { QuerySpec, TrajectoryFilter, TrajectorySort } from '../../core/run/query';
import { SORT_KEYS } from '../../core/run/query';

/** The object without its undefined fields (so that it compares and serializes as it was written). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The filter's known fields, copied by name (a command argument may carry others). */
function copyFilter(f: FilterView): TrajectoryFilter {
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
  });
}

export function filterSpec(f: FilterView): TrajectoryFilter {
  return copyFilter(f);
}

export function filterView(f: TrajectoryFilter): FilterView {
  return copyFilter(f);
}

/** A sort key with its direction, `descending` only when true (either type: they are spelled alike). */
function sortOf<K extends string>(key: K, descending: boolean | undefined): { key: K; descending?: true } {
  return { key, ...(descending ? { descending: true } : {}) };
}

/**
 * The engine's query for a wire query. Sort keys it does not know are dropped: a query
 * may come from a command argument, which is checked less strictly than a webview message.
 */
export function querySpec(q: QueryView): QuerySpec {
  const sort: TrajectorySort[] = [];
  for (const s of q.sort) if (SORT_KEYS.includes(s.key)) sort.push(sortOf(s.key, s.descending));
  return { filter: filterSpec(q.filter), sort };
}

export function queryView(q: QuerySpec): QueryView {
  return { filter: filterView(q.filter), sort: q.sort.map((s): SortView => sortOf(s.key, s.descending)) };
}
