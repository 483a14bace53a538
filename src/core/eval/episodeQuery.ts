/**
 * The trajectory browser's query over eval episodes (docs/format.md section 8): the source is
 * one checkpoint's episodes (`evalIteration`, optionally one task, `evalTask`), and the
 * browser's other filters and sort keys read as they do on training rollouts where an
 * episode has the figure. An episode has no group, rollout, labels or flags: a filter on one
 * of those matches no episode, a sort by one orders nothing. The episodes of one task at a
 * checkpoint play the part of a group's rollouts: sorting by group orders by task, by rollout by sample.
 */
import type { EvalEpisode, EvalLog } from './evalLog';
import type { SortKey, TrajectoryFilter, TrajectoryQuery } from '../../shared/shapes';
import { tagMask } from '../behaviour/tags';

/** The indices (into `episodes`) of the checkpoint's episodes, in file order. */
export function sourceEpisodes(episodes: readonly EvalEpisode[], f: TrajectoryFilter): number[] {
  const out: number[] = [];
  if (f.evalIteration === undefined) return out;
  for (let i = 0; i < episodes.length; i++) {
    const e = episodes[i]!;
    if (e.iteration === f.evalIteration && (f.evalTask === undefined || e.task === f.evalTask)) out.push(i);
  }
  return out;
}

/** Does episode `e` (with its tag bits) pass the browser's filters, text aside? */
function passes(e: EvalEpisode, bits: number, f: TrajectoryFilter, tags: number): boolean {
  if (f.iterationMin !== undefined && e.iteration < f.iterationMin) return false;
  if (f.iterationMax !== undefined && e.iteration > f.iterationMax) return false;
  // no group, rollout, label, flag or gate pair on an eval episode
  if (f.group !== undefined || f.rollout !== undefined || f.labeledOnly || f.flags || f.gate) return false;
  if (f.reward === 'success' && !(e.reward > 0)) return false;
  if (f.reward === 'failure' && !(e.reward <= 0)) return false;
  if (f.reward === 'format' && !(e.reward < 0)) return false;
  return tags === 0 || (bits & tags) === tags;
}

type Value = (i: number) => number | string | undefined;

function sortValue(episodes: readonly EvalEpisode[], bits: (i: number) => number, key: SortKey): Value {
  switch (key) {
    case 'iteration':
      return (i) => episodes[i]!.iteration;
    case 'group':
      return (i) => episodes[i]!.task;
    case 'rollout':
      return (i) => episodes[i]!.sample;
    case 'reward':
      return (i) => episodes[i]!.reward;
    case 'turns':
      return (i) => episodes[i]!.turns;
    case 'flags':
      return (i) => bits(i);
    default:
      return () => undefined;
  }
}

/**
 * The episodes of the query's source that pass its filters, sorted (stable in file order).
 * `bits(i)`: episode i's tag bits (`EpisodeTags`); `textHits`: the episodes whose text holds the searched text.
 */
export function queryEpisodes(
  episodes: readonly EvalEpisode[],
  q: TrajectoryQuery,
  bits: (i: number) => number,
  textHits?: ReadonlySet<number>,
): number[] {
  const f = q.filter;
  const tags = f.tags && f.tags.length > 0 ? tagMask(f.tags) : 0;
  const out = sourceEpisodes(episodes, f).filter((i) => passes(episodes[i]!, bits(i), f, tags) && (!textHits || textHits.has(i)));
  if (q.sort.length === 0) return out;
  const keys = q.sort.map((s) => ({ get: sortValue(episodes, bits, s.key), sign: s.descending ? -1 : 1 }));
  return out.sort((a, b) => {
    for (const k of keys) {
      const va = k.get(a);
      const vb = k.get(b);
      if (va === vb || va === undefined || vb === undefined) continue;
      return va < vb ? -k.sign : k.sign;
    }
    return a - b;
  });
}

/** The episodes of `indices` whose task, instruction or an action holds `needle` (case-insensitive), each read back. */
export async function episodeTextHits(
  log: EvalLog,
  indices: readonly number[],
  needle: string,
  signal?: AbortSignal,
): Promise<Set<number>> {
  const lower = needle.toLowerCase();
  const hits = new Set<number>();
  for (const i of indices) {
    signal?.throwIfAborted();
    const e = await log.read(i);
    const text = [e.task, e.instruction ?? '', ...e.turns.map((t) => t.action)].join('\n').toLowerCase();
    if (text.includes(lower)) hits.add(i);
  }
  return hits;
}
