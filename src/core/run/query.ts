/** Filtering, sorting and paging over the index; never re-reads the log except for text search. */
import type { CreditIndex, TrajectoryRow } from '../log/creditIndex';
import type { SortKey, TrajectoryQuery } from '../../shared/shapes';
import { Flag } from '../../shared/shapes';
import { tagMask } from '../behaviour/tags';

/** Row ids that pass the filter (text aside), sorted; stable in file order. */
export function queryRows(
  index: CreditIndex,
  spec: TrajectoryQuery,
  gateRows?: ReadonlySet<number>,
  textRows?: ReadonlySet<number>,
): Int32Array {
  const c = index.columns;
  const f = spec.filter;
  const out: number[] = [];
  const tags = f.tags && f.tags.length > 0 ? tagMask(f.tags) : 0;
  for (let i = 0; i < index.size; i++) {
    const it = c.iteration[i]!;
    if (f.iterationMin !== undefined && it < f.iterationMin) continue;
    if (f.iterationMax !== undefined && it > f.iterationMax) continue;
    if (f.group !== undefined && c.group[i] !== f.group) continue;
    if (f.rollout !== undefined && c.rollout[i] !== f.rollout) continue;
    const r = c.reward[i]!;
    if (f.reward === 'success' && !(r > 0)) continue;
    if (f.reward === 'failure' && !(r <= 0)) continue;
    if (f.reward === 'format' && !(r < 0)) continue;
    if (f.labeledOnly && (c.flags[i]! & Flag.Labeled) === 0) continue;
    if (f.flags && (c.flags[i]! & f.flags) !== f.flags) continue;
    if (f.gate && !(gateRows?.has(i) ?? false)) continue;
    if (tags !== 0 && (index.tags(i) & tags) !== tags) continue;
    if (textRows && !textRows.has(i)) continue;
    out.push(i);
  }
  const rows = Int32Array.from(out);
  if (spec.sort.length === 0) return rows;
  const keys = spec.sort.map((s) => ({ get: sortValue(index, s.key), sign: s.descending ? -1 : 1 }));
  const arr = Array.from(rows);
  arr.sort((a, b) => {
    for (const k of keys) {
      const va = k.get(a);
      const vb = k.get(b);
      // missing values (NaN) last, whatever the direction
      const na = Number.isNaN(va),
        nb = Number.isNaN(vb);
      if (na !== nb) return na ? 1 : -1;
      if (va !== vb && !na) return va < vb ? -k.sign : k.sign;
    }
    return a - b;
  });
  return Int32Array.from(arr);
}

function sortValue(index: CreditIndex, key: SortKey): (i: number) => number {
  const c = index.columns;
  switch (key) {
    case 'iteration':
      return (i) => c.iteration[i]!;
    case 'group':
      return (i) => c.group[i]!;
    case 'rollout':
      return (i) => c.rollout[i]!;
    case 'reward':
      return (i) => c.reward[i]!;
    case 'A':
      return (i) => c.A[i]!;
    case 'labeled':
      return (i) => ((c.flags[i]! & Flag.Labeled) !== 0 ? 1 : 0);
    case 'turns':
      return (i) => c.turns[i]!;
    case 'meanC':
      return (i) => (c.cCount[i]! > 0 ? c.sumC[i]! / c.cCount[i]! : NaN);
    case 'signFlips':
      return (i) => c.signFlips[i]!;
    case 'argmaxTurns':
      return (i) => c.argmaxTurns[i]!;
    case 'fallbackTurns':
      return (i) => c.fallbackTurns[i]!;
    case 'flags':
      return (i) => c.flags[i]!;
  }
}

export function page(index: CreditIndex, rows: Int32Array, offset: number, limit: number): TrajectoryRow[] {
  const out: TrajectoryRow[] = [];
  for (let k = offset; k < Math.min(rows.length, offset + limit); k++) out.push(index.row(rows[k]!));
  return out;
}

/**
 * Rows whose record text holds `needle` (case-insensitive), reading the log once in
 * file order. Matching is on the decoded JSON text of the record.
 */
export async function textSearch(index: CreditIndex, needle: string, signal?: AbortSignal): Promise<Set<number>> {
  const hits = new Set<number>();
  const lower = needle.toLowerCase();
  if (lower.length === 0) return hits;
  const escaped = JSON.stringify(needle).slice(1, -1).toLowerCase();
  for (let i = 0; i < index.size; i++) {
    if ((i & 255) === 0) signal?.throwIfAborted();
    const text = (await index.rawText(i)).toLowerCase();
    if (text.includes(escaped) || text.includes(lower)) hits.add(i);
  }
  return hits;
}
