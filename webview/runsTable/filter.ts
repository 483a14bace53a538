/**
 * The runs table's filter, as the user types it: words a run's name must hold, and comparisons of
 * a column with a number (`beta>=0.4`, `success<50%`, `repeat>1%`), every one of which must hold.
 * Pure, so that the page and its tests read it the same way.
 */
import { RUNS_COLUMNS, columnTag } from '../../src/shared/protocol/runsTable';
import type { RunsColumn, RunsRowView } from '../../src/shared/protocol/runsTable';
import { TAG_NAMES } from '../../src/shared/shapes';

type Op = '<' | '<=' | '>' | '>=' | '=';

export interface Comparison {
  column: RunsColumn;
  op: Op;
  value: number;
}

export interface RunsFilter {
  words: string[];
  comparisons: Comparison[];
  /** the parts that are neither (an unknown column, a bad number): shown to the user, ignored */
  unknown: string[];
}

/** Short names a user types for a column (besides the column's own name, any case). */
const ALIASES: Readonly<Record<string, RunsColumn>> = {
  iters: 'iterations',
  trajs: 'trajectories',
  reward: 'rewardLast',
  first: 'rewardFirst',
  last: 'rewardLast',
  gate: 'gateDiff',
  p: 'gateP',
  signflip: 'signFlip',
  success: 'evalSuccess',
  eval: 'evalSuccess',
  ...Object.fromEntries(TAG_NAMES.map((t) => [t.toLowerCase(), `tag:${t}` as RunsColumn])),
};

function columnNamed(name: string): RunsColumn | undefined {
  const n = name.toLowerCase();
  return ALIASES[n] ?? RUNS_COLUMNS.find((c) => c.toLowerCase() === n || c.toLowerCase() === `tag:${n}`);
}

const PERCENT_COLUMNS = (c: RunsColumn): boolean =>
  columnTag(c) !== undefined || c === 'signFlip' || c === 'fallback' || c === 'argmax' || c === 'evalSuccess';

const COMPARISON = /^([\w:]+)\s*(<=|>=|<|>|=)\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(%?)$/i;

export function parseRunsFilter(text: string): RunsFilter {
  const out: RunsFilter = { words: [], comparisons: [], unknown: [] };
  // "beta >= 0.4" typed with spaces is one comparison
  const parts = text
    .replace(/\s*(<=|>=|<|>|=)\s*/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  for (const part of parts) {
    const m = COMPARISON.exec(part);
    if (!m) {
      if (/[<>=]/.test(part)) out.unknown.push(part);
      else out.words.push(part.toLowerCase());
      continue;
    }
    const column = columnNamed(m[1]!);
    const raw = Number(m[3]);
    if (!column || !Number.isFinite(raw)) {
      out.unknown.push(part);
      continue;
    }
    // a rate is kept as a fraction: "5%" and, for a rate column, "5" above 1 both mean 0.05
    const value = m[4] === '%' || (PERCENT_COLUMNS(column) && Math.abs(raw) > 1) ? raw / 100 : raw;
    out.comparisons.push({ column, op: m[2] as Op, value });
  }
  return out;
}

function holds(v: number, op: Op, x: number): boolean {
  switch (op) {
    case '<':
      return v < x;
    case '<=':
      return v <= x;
    case '>':
      return v > x;
    case '>=':
      return v >= x;
    default:
      return Math.abs(v - x) <= 1e-9 * Math.max(1, Math.abs(x));
  }
}

/** Whether a row passes: its name holds every word, and each comparison holds (a row without that figure fails it). */
export function passes(f: RunsFilter, row: RunsRowView): boolean {
  const name = row.name.toLowerCase();
  if (!f.words.every((w) => name.includes(w))) return false;
  return f.comparisons.every((c) => {
    const v = row.cells[c.column]?.sort;
    return typeof v === 'number' && holds(v, c.op, c.value);
  });
}

/** The rows in the order of `column` (no figure last, either way; ties by name). */
export function sortRows(rows: readonly RunsRowView[], column: RunsColumn, descending: boolean): RunsRowView[] {
  const key = (r: RunsRowView): number | string | null => (column === 'run' ? r.name.toLowerCase() : (r.cells[column]?.sort ?? null));
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) return x === y ? a.name.localeCompare(b.name) : x === null ? 1 : -1;
    const d = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return d === 0 ? a.name.localeCompare(b.name) : descending ? -d : d;
  });
}
