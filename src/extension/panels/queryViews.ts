/**
 * The trajectory query between the wire and the engine: the one place that knows both
 * `QueryView` (src/shared/protocol.ts) and core's `QuerySpec`. A new filter field or sort
 * key is added to the wire type, here, and to the core type; the compiler points at this
 * file when the two disagree.
 */
import type { FilterView, QueryView, SortKeyView, SortView } from '../../shared/protocol';
import type { QuerySpec, SortKey, TrajectoryFilter, TrajectorySort } from '../../core/run/query';

const TO_CORE: Readonly<Record<SortKeyView, SortKey>> = {
  iteration: 'iteration',
  group: 'group',
  rollout: 'rollout',
  reward: 'reward',
  A: 'A',
  labeled: 'labeled',
  turns: 'turns',
  meanC: 'meanC',
  signFlips: 'signFlips',
  argmaxTurns: 'argmaxTurns',
  fallbackTurns: 'fallbackTurns',
  flags: 'flags',
};

const TO_WIRE: Readonly<Record<SortKey, SortKeyView>> = {
  iteration: 'iteration',
  group: 'group',
  rollout: 'rollout',
  reward: 'reward',
  A: 'A',
  labeled: 'labeled',
  turns: 'turns',
  meanC: 'meanC',
  signFlips: 'signFlips',
  argmaxTurns: 'argmaxTurns',
  fallbackTurns: 'fallbackTurns',
  flags: 'flags',
};

/** The object without its undefined fields (so that it compares and serializes as it was written). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function filterSpec(f: FilterView): TrajectoryFilter {
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

export function filterView(f: TrajectoryFilter): FilterView {
  return defined<FilterView>({
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

/**
 * The engine's query for a wire query. Sort keys it does not know are dropped: a query
 * may come from a command argument, which is checked less strictly than a webview message.
 */
export function querySpec(q: QueryView): QuerySpec {
  const sort: TrajectorySort[] = [];
  for (const s of q.sort) {
    const key = Object.hasOwn(TO_CORE, s.key) ? TO_CORE[s.key] : undefined;
    if (key) sort.push({ key, ...(s.descending ? { descending: true } : {}) });
  }
  return { filter: filterSpec(q.filter), sort };
}

export function queryView(q: QuerySpec): QueryView {
  return {
    filter: filterView(q.filter),
    sort: q.sort.map((s): SortView => ({ key: TO_WIRE[s.key], ...(s.descending ? { descending: true } : {}) })),
  };
}
