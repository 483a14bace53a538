/**
 * What a watch has already told about a run: the iterations, checkpoints and evaluations it gave
 * events for, and when new iterations were seen (for `stale`). Kept with the saved indexes between
 * `rlrb watch --once` runs and handed to an MCP client as an opaque text; read back as untrusted input.
 */
import type { IndexStore } from '../log/indexStore';

export interface LiveCursor {
  /** iterations given an `iteration` event, as ascending inclusive ranges [from, to] */
  iterations: [number, number][];
  /** checkpoints given a `checkpoint` event, `kind:iteration` */
  checkpoints: string[];
  /** [iteration, evaluation episodes counted when its last `evaluation` event was given] */
  evaluations: [number, number][];
  /** when the last (at most 10) new iterations were seen, ms since the epoch, oldest first */
  seen: number[];
  /** when the last new iteration was seen (the first watch when none has been); null before any watch */
  lastNewAt: number | null;
  /** `lastNewAt` of the quiet spell a `stale` event was given for (one per spell) */
  staleFor: number | null;
}

export const emptyCursor = (): LiveCursor => ({
  iterations: [],
  checkpoints: [],
  evaluations: [],
  seen: [],
  lastNewAt: null,
  staleFor: null,
});

/** The most entries a cursor read back may hold (a run has thousands of iterations at most). */
const MAX_ENTRIES = 100_000;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const pairs = (v: unknown): v is [number, number][] =>
  Array.isArray(v) && v.length <= MAX_ENTRIES && v.every((p) => Array.isArray(p) && p.length === 2 && isNum(p[0]) && isNum(p[1]));

/** A cursor read back (from disk or a client), or undefined when it is not one. */
export function parseCursor(v: unknown): LiveCursor | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  const ok =
    pairs(o['iterations']) &&
    Array.isArray(o['checkpoints']) &&
    o['checkpoints'].length <= MAX_ENTRIES &&
    o['checkpoints'].every((c) => typeof c === 'string' && c.length < 40) &&
    pairs(o['evaluations']) &&
    Array.isArray(o['seen']) &&
    o['seen'].length <= 10 &&
    o['seen'].every(isNum) &&
    (o['lastNewAt'] === null || isNum(o['lastNewAt'])) &&
    (o['staleFor'] === null || isNum(o['staleFor']));
  if (!ok) return undefined;
  return {
    iterations: o['iterations'] as [number, number][],
    checkpoints: o['checkpoints'] as string[],
    evaluations: o['evaluations'] as [number, number][],
    seen: o['seen'] as number[],
    lastNewAt: o['lastNewAt'] as number | null,
    staleFor: o['staleFor'] as number | null,
  };
}

/** Whether `it` lies in one of the ranges. */
export function inRanges(ranges: readonly [number, number][], it: number): boolean {
  return ranges.some(([a, b]) => a <= it && it <= b);
}

/** The ranges with `its` added, merged where whole numbers touch. */
export function addToRanges(ranges: readonly [number, number][], its: readonly number[]): [number, number][] {
  const all = [...ranges.map(([a, b]) => [a, b] as [number, number]), ...its.map((i) => [i, i] as [number, number])];
  all.sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const r of all) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

/** A cursor as an opaque text (for an MCP client), and back. */
export const cursorText = (c: LiveCursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

export function cursorFromText(s: string): LiveCursor | undefined {
  if (s.length > 4 << 20) return undefined;
  try {
    return parseCursor(JSON.parse(Buffer.from(s, 'base64url').toString('utf8')));
  } catch {
    return undefined;
  }
}

const KIND = 'live-cursor';

/** The cursor of the last watch of the run named `key`, kept in `store` (an empty one when none is, or it does not read). */
export async function loadCursor(store: IndexStore | undefined, key: string): Promise<LiveCursor> {
  const buf = await store?.load(store.keyName(KIND, key));
  if (!buf) return emptyCursor();
  try {
    return parseCursor(JSON.parse(buf.toString('utf8'))) ?? emptyCursor();
  } catch {
    return emptyCursor();
  }
}

export async function saveCursor(store: IndexStore | undefined, key: string, c: LiveCursor): Promise<void> {
  await store?.save(store.keyName(KIND, key), [Buffer.from(JSON.stringify(c))]);
}
