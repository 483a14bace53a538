/**
 * The parts' results joined into the index of the whole file, exactly as one thread
 * builds it: rows in file order, line numbers rebased on the lines before each part,
 * skipped lines kept in the same order and number, and the schema observer's counts
 * added part after part in the order each name was first met, the cap on unknown keys
 * applied here, once, as one thread applies it.
 */
import { SchemaObserver } from '../../record/schema';
import type { FileState } from '../jsonlFile';
import { MAX_SKIPPED_KEPT } from '../jsonlFile';
import { observerFromJson } from '../observerCodec';
import type { TypedColumn } from '../indexCodec';
import type { PartResult } from './parts';

export interface MergedParts {
  rows: number;
  /** each column holds at least `rows` (and at least 1024) elements */
  columns: Record<string, TypedColumn>;
  file: FileState;
  observer: SchemaObserver;
  slowPathRows: number;
}

function addNames<F>(into: Map<F, Map<string, number>>, from: Map<F, Map<string, number>>): void {
  for (const [field, names] of from) {
    let m = into.get(field);
    if (!m) {
      m = new Map();
      into.set(field, m);
    }
    for (const [name, n] of names) m.set(name, (m.get(name) ?? 0) + n);
  }
}

/** Adds one part's observer (line numbers `base` later) to `into`. */
function addObserver(into: SchemaObserver, part: SchemaObserver, base: number): void {
  addNames(into.trajectoryNames, part.trajectoryNames);
  addNames(into.turnNames, part.turnNames);
  for (const [k, n] of part.unknownTrajectoryKeys) into.seeUnknown('trajectory', k, n);
  for (const [k, n] of part.unknownTurnKeys) into.seeUnknown('turn', k, n);
  for (const [name, w] of part.wrongTypes) {
    for (const line of w.lines) into.seeWrongType(name, line + base);
    const kept = into.wrongTypes.get(name);
    if (kept) kept.count += w.count - w.lines.length;
  }
  into.records += part.records;
  into.turns += part.turns;
}

function joinColumns(parts: PartResult[], rows: number): Record<string, TypedColumn> {
  const out: Record<string, TypedColumn> = {};
  const first = parts[0];
  if (!first) return out;
  for (const [name, col] of Object.entries(first.columns)) {
    const make = col.constructor as new (n: number) => TypedColumn;
    const all = new make(Math.max(1024, rows));
    let at = 0;
    for (const p of parts) {
      const c = p.columns[name];
      if (!c || c.length !== p.rows) throw new Error(`a part sent a column ${name} of ${c?.length} rows, not ${p.rows}`);
      all.set(c, at);
      at += p.rows;
    }
    out[name] = all;
  }
  return out;
}

/** The index of [0, committed) from its parts, in file order. */
export function mergeParts(parts: PartResult[], committed: number): MergedParts {
  const rows = parts.reduce((n, p) => n + p.rows, 0);
  const observer = new SchemaObserver();
  const skipped: FileState['skipped'] = [];
  let lines = 0;
  let skippedCount = 0;
  let slowPathRows = 0;
  const lineCol = (cols: Record<string, TypedColumn>): TypedColumn | undefined => cols['line'];
  for (const p of parts) {
    const line = lineCol(p.columns);
    if (line) for (let i = 0; i < p.rows; i++) line[i] = line[i]! + lines;
    for (const s of p.skipped) if (skipped.length < MAX_SKIPPED_KEPT) skipped.push({ line: s.line + lines, message: s.message });
    const o = new SchemaObserver();
    if (!observerFromJson(o, p.observer)) throw new Error('a part sent a schema observer that does not decode');
    addObserver(observer, o, lines);
    lines += p.lines;
    skippedCount += p.skippedCount;
    slowPathRows += p.slowPathRows;
  }
  return { rows, columns: joinColumns(parts, rows), file: { committed, lines, skipped, skippedCount }, observer, slowPathRows };
}
