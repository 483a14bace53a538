/**
 * The trajectory browser's query in words: one removable chip per active filter and sort
 * key, so nothing the table is filtered by is hidden (a jump's flag or gate filter included).
 */
import { Flag } from './shapes';
import type { SortKey, TagName, TrajectoryFilter, TrajectoryQuery } from './shapes';
import { TAG_WORDS } from './tagWords';

/** The row flag bits the wire's `flags` filter holds, in words. */
export const FLAG_NAMES: readonly [number, string][] = [
  [Flag.SignFlip, 'sign flip'],
  [Flag.Argmax, 'executed = argmax'],
  [Flag.Fallback, 'fallback'],
  [Flag.Masked, 'masked'],
  [Flag.CMismatch, 'c mismatch'],
  [Flag.ATMismatch, 'A_t mismatch'],
  [Flag.SameMismatch, 'same-flag mismatch'],
  [Flag.Labeled, 'labeled'],
  [Flag.DoneCandidate, 'done candidate'],
  [Flag.MissingFields, 'missing fields'],
];

const SORT_NAMES: Record<SortKey, string> = {
  iteration: 'iteration',
  group: 'group',
  rollout: 'rollout',
  reward: 'reward',
  A: 'A',
  labeled: 'labeled',
  turns: 'turns',
  meanC: 'mean c',
  signFlips: 'sign flips',
  argmaxTurns: 'argmax turns',
  fallbackTurns: 'fallback turns',
  flags: 'flags',
};

export interface QueryChip {
  /** stable name for tests and focus: `iteration`, `flag-1`, `sort-meanC` */
  id: string;
  label: string;
  /** the query without this chip */
  without: (q: TrajectoryQuery) => TrajectoryQuery;
}

const dropFilter =
  (...keys: (keyof TrajectoryFilter)[]) =>
  (q: TrajectoryQuery): TrajectoryQuery => {
    const filter = { ...q.filter };
    for (const k of keys) delete filter[k];
    return { filter, sort: q.sort };
  };

const dropTag =
  (t: TagName) =>
  (q: TrajectoryQuery): TrajectoryQuery => {
    const tags = (q.filter.tags ?? []).filter((x) => x !== t);
    const filter: TrajectoryFilter = { ...q.filter, tags };
    if (tags.length === 0) delete filter.tags;
    return { filter, sort: q.sort };
  };

/** The query with tag `t` among its `tag:` filters (a click on a tag anywhere); the same query when it is there. */
export function withTag(q: TrajectoryQuery, t: TagName): TrajectoryQuery {
  const tags = q.filter.tags ?? [];
  return tags.includes(t) ? q : { filter: { ...q.filter, tags: [...tags, t] }, sort: q.sort };
}

function iterationLabel(f: TrajectoryFilter): string | null {
  const lo = f.iterationMin,
    hi = f.iterationMax;
  if (lo === undefined && hi === undefined) return null;
  if (lo !== undefined && hi !== undefined)
    return lo === hi ? `iteration ${lo}` : lo > hi ? `iteration ${lo}–${hi} (empty range)` : `iteration ${lo}–${hi}`;
  return lo !== undefined ? `iteration ≥ ${lo}` : `iteration ≤ ${hi}`;
}

const REWARDS = { success: 'succeeded', failure: 'failed', format: 'format failure' } as const;

/** On eval episodes a task's episodes play the part of a group's rollouts: the group and rollout sort keys order by task and sample. */
const EVAL_SORT_NAMES: Partial<Record<SortKey, string>> = { group: 'task', rollout: 'sample', flags: 'tags' };

/** The source chip first: the eval episodes of a checkpoint (and a task), removing it goes back to the training rollouts. */
function sourceChips(f: TrajectoryFilter): QueryChip[] {
  if (f.evalIteration === undefined) return [];
  const out: QueryChip[] = [
    { id: 'eval', label: `Evaluation episodes · iteration ${f.evalIteration}`, without: dropFilter('evalIteration', 'evalTask') },
  ];
  if (f.evalTask !== undefined) out.push({ id: 'eval-task', label: `task ${f.evalTask}`, without: dropFilter('evalTask') });
  return out;
}

/** Every active filter, then every sort key, in the order they apply. */
export function queryChips(q: TrajectoryQuery): QueryChip[] {
  const f = q.filter;
  const out: QueryChip[] = sourceChips(f);
  const it = iterationLabel(f);
  if (it) out.push({ id: 'iteration', label: it, without: dropFilter('iterationMin', 'iterationMax') });
  if (f.group !== undefined) out.push({ id: 'group', label: `group ${f.group}`, without: dropFilter('group') });
  if (f.rollout !== undefined) out.push({ id: 'rollout', label: `rollout ${f.rollout}`, without: dropFilter('rollout') });
  if (f.reward) out.push({ id: 'reward', label: REWARDS[f.reward], without: dropFilter('reward') });
  if (f.labeledOnly) out.push({ id: 'labeled', label: 'labeled only', without: dropFilter('labeledOnly') });
  for (const [bit, name] of FLAG_NAMES)
    if (((f.flags ?? 0) & bit) !== 0)
      out.push({
        id: `flag-${bit}`,
        label: `has ${name}`,
        without: (x) => {
          const flags = (x.filter.flags ?? 0) & ~bit;
          const filter: TrajectoryFilter = { ...x.filter, flags };
          if (!flags) delete filter.flags;
          return { filter, sort: x.sort };
        },
      });
  if (f.gate) out.push({ id: 'gate', label: "gate pairs (mixed groups' labeled rollouts)", without: dropFilter('gate') });
  for (const t of f.tags ?? []) out.push({ id: `tag-${t}`, label: `tag ${TAG_WORDS[t].label}`, without: dropTag(t) });
  if (f.text) out.push({ id: 'text', label: `text “${f.text}”`, without: dropFilter('text') });
  q.sort.forEach((s, i) => {
    const name = (f.evalIteration !== undefined ? EVAL_SORT_NAMES[s.key] : undefined) ?? SORT_NAMES[s.key];
    out.push({
      id: `sort-${s.key}`,
      label: `${i === 0 ? 'sort' : 'then'} ${name} ${s.descending ? '↓' : '↑'}`,
      without: (x) => ({ filter: x.filter, sort: x.sort.filter((y) => y.key !== s.key) }),
    });
  });
  return out;
}

/** The header line, from the live query alone: "3525 of 10800 trajectories · iteration 11 · has sign flip". */
export function queryHeader(q: TrajectoryQuery, total: number, size: number): string {
  const filters = queryChips(q).filter((c) => !c.id.startsWith('sort-'));
  if (q.filter.evalIteration !== undefined) {
    // the source's chips name it; the count is of its episodes
    const narrowed = filters.length > sourceChips(q.filter).length;
    const count = narrowed ? `${total} of ${size} evaluation episodes` : `all ${size} evaluation episodes`;
    return [count, ...filters.map((c) => c.label)].join(' · ');
  }
  const count = filters.length === 0 ? `all ${size} trajectories` : `${total} of ${size} trajectories`;
  return [count, ...filters.map((c) => c.label)].join(' · ');
}
