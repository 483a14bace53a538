/**
 * `ws_metrics.jsonl`: every numeric field as a series over iterations. When an
 * iteration appears twice (a requeued run logs again after its resume point) the
 * later row wins and the duplication is reported.
 */
import { JsonlFile } from './jsonlFile';
import type { FileState, LineSink, ReadLimits, SkippedLine, UpdateResult } from './jsonlFile';
import { columnOf } from './indexCodec';
import type { DecodedFrame, Section } from './indexCodec';
import { stableJson } from './indexStore';
import { SavedLifecycle } from './savedLifecycle';
import type { CacheUse } from './savedLifecycle';
import type { IndexStore } from './indexStore';
import { METRICS_ITERATION_ALIASES } from '../record/schema';
import type { FieldMapping } from '../record/schema';
import { numberOf, parseTolerant } from './tolerantJson';
import { Emitter } from './events';
import { errorMessage } from '../errorMessage';
import { MetricEntries, SteppedColumn, floatColumn, uintColumn } from './metrics/columns';
import { metricsOrder } from './metrics/order';
import type { DuplicateIteration, MetricsOrder } from './metrics/order';

export type { DuplicateIteration } from './metrics/order';

/** One metric's values aligned with `MetricsTable.iterations`: NaN where missing or not finite. */
export interface MetricSeries {
  name: string;
  values: Float64Array;
}

/**
 * The metrics as series over iterations, read on demand: the iterations and the names are
 * kept, a metric's values are built when it is asked for (a log of 100,000 metrics is not
 * 100,000 columns of every iteration).
 */
export interface MetricsTable {
  /** every iteration logged, ascending */
  readonly iterations: readonly number[];
  /** how many iterations (without listing them) */
  readonly count: number;
  /** every metric's name, in the dashboard's order (`compareMetricNames`) */
  readonly names: readonly string[];
  /**
   * One metric aligned with `iterations` (or with `iterations[from, to)`), built on each call;
   * undefined for a name not in `names`.
   */
  values(name: string, from?: number, to?: number): Float64Array | undefined;
}

export interface NonFiniteMetric {
  name: string;
  /** rows whose value is null, NaN or +-Infinity */
  count: number;
  /** rows in the table (one per iteration) */
  rows: number;
  /** the first of those rows' lines */
  lines: number[];
}

/** How the last update started: from nothing, from a saved index of the unchanged file, or of the file before it grew. */
export type { CacheUse as MetricsCacheUse } from './savedLifecycle';

const KIND = 'metrics';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export class MetricsIndex implements LineSink {
  /** each row's iteration and line, in file order */
  private iteration = new SteppedColumn(floatColumn);
  private lineOf = new SteppedColumn(uintColumn);
  /** each metric's entries, in the order first seen */
  private entries = new Map<string, MetricEntries>();
  /** every row's iteration is larger than the one before (no sort needed, no duplicate) */
  private increasing = true;
  private derived: { version: number; order: MetricsOrder; names: string[] } | undefined;
  /** `nonFinite()` as of a version: the Problems panel asks on every change */
  private nonFiniteOf: { version: number; value: NonFiniteMetric[] } | undefined;
  private readonly file: JsonlFile;
  private readonly iterationKeys: string[];
  private readonly changed = new Emitter<{ kind: 'append' | 'reset' }>();
  readonly onDidChange = this.changed.event;
  private published = 0;
  /** changes whenever the rows change */
  version = 0;
  /** rows that had no iteration field */
  rowsWithoutIteration = 0;

  private readonly saved: SavedLifecycle;

  /** `engine.store`: a folder of saved indexes to start from and save to (none: always from byte 0). */
  constructor(
    readonly path: string,
    mapping: FieldMapping = {},
    engine: { store?: IndexStore } = {},
    /** `source`: the bytes of a log that is not a local file (a Hub log read in place) */
    limits: ReadLimits = {},
  ) {
    this.iterationKeys = [...(mapping['iteration'] ? [mapping['iteration']] : []), ...METRICS_ITERATION_ALIASES];
    this.file = new JsonlFile(path, this, limits);
    this.saved = new SavedLifecycle(engine.store, {
      path,
      kind: KIND,
      optionsKey: this.optionsKey,
      storeName: (store) => store.nameOf(KIND, path, { iterationKeys: this.iterationKeys }),
      restore: (frame, committed) => this.restore(frame, committed),
      frameToSave: () => {
        const state = this.file.state();
        return state && { committed: state.committed, frame: () => this.frameOf(state) };
      },
    });
  }

  /** what the first update started from */
  get cacheUse(): CacheUse {
    return this.saved.cacheUse;
  }

  /** why the saved index could not be written, when it could not (saving is best effort) */
  get cacheError(): string | undefined {
    return this.saved.cacheError;
  }

  /** The options a saved index must have been built with: the iteration keys looked for, in order. */
  private get optionsKey(): string {
    return stableJson({ iterationKeys: this.iterationKeys });
  }

  get skippedLines(): { line: number; message: string }[] {
    return this.file.skipped;
  }

  get skippedCount(): number {
    return this.file.skippedCount;
  }

  get rowCount(): number {
    return this.iteration.length;
  }

  /** Distinct metric names held (including those only in rows a later row replaced). */
  get metricCount(): number {
    return this.entries.size;
  }

  async update(signal?: AbortSignal): Promise<UpdateResult> {
    await this.saved.load();
    const r = await this.file.update(undefined, signal);
    this.chunkDone();
    await this.saved.afterUpdate(r.kind !== 'none');
    return r;
  }

  /** Writes the rows as they are now (skipped while a provisional last line is held). */
  /**
   * The rows as they are now, to be kept by a caller that saves them elsewhere (a Hub log); undefined while a provisional last line is
   * held.
   */
  snapshot(): { header: Record<string, unknown>; sections: Section[]; committed: number } | undefined {
    const state = this.file.state();
    return state ? { ...this.frameOf(state), committed: state.committed } : undefined;
  }

  /** Starts from a frame of `snapshot()` indexed up to `committed` (with these iteration keys); false when it does not check out. */
  restoreFrame(frame: DecodedFrame, committed: number): boolean {
    return frame.header['kind'] === KIND && frame.header['options'] === this.optionsKey && this.restore(frame, committed);
  }

  /**
   * The rows as a frame, by metric: names once, each metric's count and values; rows, lines,
   * iterations and a metric's rows as a first and a step where they step evenly, else stored
   * (blocks written as they are, not copied).
   */
  private frameOf(state: FileState): { header: Record<string, unknown>; sections: Section[] } {
    const n = this.rowCount;
    const metrics = [...this.entries.values()];
    const counts = new Uint32Array(metrics.length);
    const first = new Float64Array(metrics.length);
    const step = new Float64Array(metrics.length);
    const rowParts: Uint32Array[] = [];
    const valueParts: Float64Array[] = [];
    let rows = 0;
    let total = 0;
    metrics.forEach((m, k) => {
      counts[k] = m.length;
      total += m.length;
      const even = m.rows.even;
      first[k] = even ? even.first : NaN;
      step[k] = even ? even.step : NaN;
      if (!even) {
        rowParts.push(...(m.rows.parts() as Uint32Array[]));
        rows += m.length;
      }
      valueParts.push(...(m.values.parts() as Float64Array[]));
    });
    const column = (name: string, c: SteppedColumn, empty: Uint32Array | Float64Array): Section => ({
      name,
      count: c.even ? 0 : n,
      data: c.even ? empty : (c.parts() as [Float64Array]),
    });
    const header = {
      kind: KIND,
      options: this.optionsKey,
      rows: n,
      file: state,
      names: metrics.map((m) => m.name),
      rowsWithoutIteration: this.rowsWithoutIteration,
      iterationSteps: this.iteration.even ?? null,
      lineSteps: this.lineOf.even ?? null,
    };
    const sections: Section[] = [
      column('iteration', this.iteration, new Float64Array(0)),
      column('line', this.lineOf, new Uint32Array(0)),
      { name: 'metricCounts', count: metrics.length, data: counts },
      { name: 'metricFirst', count: metrics.length, data: first },
      { name: 'metricStep', count: metrics.length, data: step },
      { name: 'rowOf', count: rows, data: rowParts.length ? (rowParts as [Uint32Array]) : new Uint32Array(0) },
      { name: 'value', count: total, data: valueParts.length ? (valueParts as [Float64Array]) : new Float64Array(0) },
    ];
    return { header, sections };
  }

  /** Takes rows and file state from a saved frame; false (nothing changed) when any part does not check out. */
  private restore(frame: DecodedFrame, committed: number): boolean {
    const h = frame.header;
    const n = h['rows'];
    const file = h['file'] as Record<string, unknown> | undefined;
    const names = h['names'];
    if (!isCount(n) || !isCount(h['rowsWithoutIteration'])) return false;
    if (!file || file['committed'] !== committed || !isCount(file['lines']) || !isCount(file['skippedCount'])) return false;
    if (!Array.isArray(names) || !names.every((x) => typeof x === 'string') || new Set(names).size !== names.length) return false;
    const skipped = file['skipped'];
    const isSkipped = (x: unknown): boolean =>
      isCount((x as { line?: unknown } | null)?.line) && typeof (x as { message?: unknown }).message === 'string';
    if (!Array.isArray(skipped) || !skipped.every(isSkipped)) return false;
    const lines = file['lines'];
    const iteration = steppedOf(frame, 'iteration', h['iterationSteps'], n, Float64Array);
    const line = steppedOf(frame, 'line', h['lineSteps'], n, Uint32Array);
    const counts = columnOf(frame, 'metricCounts', Uint32Array, 0);
    const first = columnOf(frame, 'metricFirst', Float64Array, 0);
    const step = columnOf(frame, 'metricStep', Float64Array, 0);
    const rowOf = columnOf(frame, 'rowOf', Uint32Array, 0);
    const value = columnOf(frame, 'value', Float64Array, 0);
    if (!iteration || !line || !counts || !first || !step || !rowOf || !value) return false;
    if (counts.length !== names.length || first.length !== names.length || step.length !== names.length) return false;
    const rows = { iteration: new SteppedColumn(floatColumn), line: new SteppedColumn(uintColumn) };
    let increasing = true;
    for (let i = 0; i < n; i++) {
      const it = iteration(i);
      const ln = line(i);
      if (!Number.isFinite(it) || !Number.isSafeInteger(ln) || ln < 1 || ln > lines || (i > 0 && ln <= line(i - 1))) return false;
      if (i > 0 && !(it > iteration(i - 1))) increasing = false;
      rows.iteration.push(it);
      rows.line.push(ln);
    }
    const entries = new Map<string, MetricEntries>();
    let at = 0;
    let explicit = 0;
    for (let k = 0; k < names.length; k++) {
      const m = new MetricEntries(names[k] as string);
      const c = counts[k]!;
      const even = Number.isFinite(first[k]!);
      if (at + c > value.length || (!even && explicit + c > rowOf.length)) return false;
      for (let i = 0, last = -1; i < c; i++, at++) {
        const r = even ? first[k]! + i * step[k]! : rowOf[explicit++]!;
        if (!Number.isSafeInteger(r) || r <= last || r >= n) return false;
        m.add((last = r), value[at]!);
      }
      if (c === 0) return false;
      entries.set(m.name, m);
    }
    if (at !== value.length || explicit !== rowOf.length) return false;
    this.iteration = rows.iteration;
    this.lineOf = rows.line;
    this.entries = entries;
    this.increasing = increasing;
    this.version++;
    this.rowsWithoutIteration = h['rowsWithoutIteration'];
    this.file.restore({ committed, lines, skipped: skipped as SkippedLine[], skippedCount: file['skippedCount'] });
    return true;
  }

  reset(): void {
    this.version++;
    this.iteration = new SteppedColumn(floatColumn);
    this.lineOf = new SteppedColumn(uintColumn);
    this.entries = new Map();
    this.increasing = true;
    this.published = 0;
    this.rowsWithoutIteration = 0;
    this.changed.fire({ kind: 'reset' });
  }

  mark(): number {
    return this.rowCount;
  }

  rollback(mark: number): void {
    if (mark < this.rowCount) {
      this.iteration.truncate(mark);
      this.lineOf.truncate(mark);
      for (const [name, m] of this.entries) {
        m.dropFrom(mark);
        if (m.length === 0) this.entries.delete(name);
      }
      this.version++;
    }
    if (this.published > mark) this.published = mark;
  }

  chunkDone(): void {
    if (this.rowCount !== this.published) {
      this.published = this.rowCount;
      this.changed.fire({ kind: 'append' });
    }
  }

  line(buf: Buffer, start: number, end: number, _offset: number, lineNo: number): string | undefined {
    let obj: unknown;
    try {
      obj = parseTolerant(buf.toString('utf8', start, end));
    } catch (e) {
      return `not JSON: ${errorMessage(e)}`;
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return 'not a JSON object';
    const rec = obj as Record<string, unknown>;
    let iteration: number | undefined;
    let iterKey: string | undefined;
    for (const k of this.iterationKeys) {
      const n = numberOf(rec[k]);
      if (n !== undefined && Number.isFinite(n)) {
        iteration = n;
        iterKey = k;
        break;
      }
    }
    if (iteration === undefined) {
      this.rowsWithoutIteration++;
      return `no iteration field (looked for ${this.iterationKeys.join(', ')})`;
    }
    const row = this.rowCount;
    if (row > 0 && !(iteration > this.iteration.at(row - 1))) this.increasing = false;
    this.iteration.push(iteration);
    this.lineOf.push(lineNo);
    for (const [k, v] of Object.entries(rec)) {
      if (k === iterKey) continue;
      const n = numberOf(v);
      const value = n !== undefined && typeof v !== 'boolean' ? n : v === null ? NaN : undefined;
      if (value === undefined) continue;
      let m = this.entries.get(k);
      if (!m) this.entries.set(k, (m = new MetricEntries(k)));
      m.add(row, value);
    }
    this.version++;
    return undefined;
  }

  /** The order of the rows and the names of the metrics the winning rows have, computed again only when the rows changed. */
  private current(): { order: MetricsOrder; names: string[] } {
    if (this.derived?.version === this.version) return this.derived;
    const order = metricsOrder(this.iteration, this.lineOf, this.increasing);
    const place = order.placeOfRow;
    const names: string[] = [];
    for (const m of this.entries.values()) {
      if (!place) names.push(m.name);
      else
        for (let i = 0; i < m.length; i++)
          if (place[m.rowAt(i)]! >= 0) {
            names.push(m.name);
            break;
          }
    }
    names.sort(compareMetricNames);
    this.derived = { version: this.version, order, names };
    return this.derived;
  }

  /** Iterations logged more than once, with the line numbers of each row. */
  duplicates(): DuplicateIteration[] {
    return this.current().order.duplicates;
  }

  /**
   * Metrics logged with a value that is not a finite number (null, NaN, Infinity) in the
   * rows the table uses (the later row of a repeated iteration), with the first lines.
   */
  nonFinite(): NonFiniteMetric[] {
    if (this.nonFiniteOf?.version !== this.version) this.nonFiniteOf = { version: this.version, value: this.findNonFinite() };
    return this.nonFiniteOf.value;
  }

  private findNonFinite(): NonFiniteMetric[] {
    const { order } = this.current();
    const place = order.placeOfRow;
    const out: NonFiniteMetric[] = [];
    for (const m of this.entries.values()) {
      let found: NonFiniteMetric | undefined;
      for (let i = 0; i < m.length; i++) {
        const row = m.rowAt(i);
        if (Number.isFinite(m.values.at(i)) || (place && place[row]! < 0)) continue;
        if (!found) out.push((found = { name: m.name, count: 0, rows: order.count, lines: [] }));
        found.count++;
        if (found.lines.length < 5) found.lines.push(this.lineOf.at(row));
      }
    }
    return out.sort((a, b) => compareMetricNames(a.name, b.name));
  }

  /**
   * One metric aligned with the table's iterations [from, to) (NaN where missing or not finite), the later row winning for a repeated
   * iteration.
   */
  private valuesOf(name: string, order: MetricsOrder, from: number, to: number): Float64Array | undefined {
    const m = this.entries.get(name);
    if (!m) return undefined;
    const out = new Float64Array(to - from).fill(NaN);
    const place = order.placeOfRow;
    // each row its own iteration: the entries from the first row at `from` on, in order
    let i = 0;
    if (!place)
      for (let hi = m.length; i < hi;) {
        const mid = (i + hi) >>> 1;
        if (m.rowAt(mid) < from) i = mid + 1;
        else hi = mid;
      }
    for (; i < m.length; i++) {
      const row = m.rowAt(i);
      const at = place ? place[row]! : row;
      if (!place && at >= to) break;
      const v = m.values.at(i);
      if (at >= from && at < to && Number.isFinite(v)) out[at - from] = v;
    }
    return out;
  }

  /** The table as it is now: names kept, iterations listed when first read, each metric's values built when asked for. */
  getTable(): MetricsTable {
    const { order, names } = this.current();
    const known = new Set<string>();
    const clamp = (x: number | undefined, d: number): number => Math.max(0, Math.min(order.count, x ?? d));
    return {
      get iterations(): readonly number[] {
        return order.iterations();
      },
      count: order.count,
      names,
      values: (name, from, to) => {
        if (known.size === 0) for (const n of names) known.add(n);
        const a = clamp(from, 0);
        return known.has(name) ? this.valuesOf(name, order, a, Math.max(a, clamp(to, order.count))) : undefined;
      },
    };
  }
}

/**
 * A saved column as a function of the row: `first + i * step` from the header, else the section's values; undefined when neither checks
 * out.
 */
function steppedOf(
  frame: DecodedFrame,
  name: string,
  steps: unknown,
  n: number,
  make: typeof Float64Array | typeof Uint32Array,
): ((i: number) => number) | undefined {
  if (steps !== null && typeof steps === 'object') {
    const { first, step } = steps as { first?: unknown; step?: unknown };
    return typeof first === 'number' && typeof step === 'number' && Number.isFinite(first) && Number.isFinite(step)
      ? (i) => first + i * step
      : undefined;
  }
  const c = columnOf<Float64Array | Uint32Array>(frame, name, make, 0);
  return c && c.length === n ? (i) => c[i]! : undefined;
}

/** `localeCompare`'s order, without a collator made on each call (100,000 names are sorted) */
const collator = new Intl.Collator();

/** `ws/` first, then other prefixes alphabetically, then unprefixed names. */
export function compareMetricNames(a: string, b: string): number {
  const pa = metricPrefix(a);
  const pb = metricPrefix(b);
  const rank = (p: string): number => (p === 'ws' ? 0 : p === '' ? 2 : 1);
  return rank(pa) - rank(pb) || collator.compare(pa, pb) || collator.compare(a, b);
}

export function metricPrefix(name: string): string {
  const i = name.indexOf('/');
  return i > 0 ? name.slice(0, i) : '';
}

/** A table of columns already aligned with `iterations`, in the order given (a small table built elsewhere, e.g. a test's). */
export function tableOf(iterations: readonly number[], series: readonly MetricSeries[]): MetricsTable {
  const byName = new Map(series.map((s) => [s.name, s.values]));
  return {
    iterations,
    count: iterations.length,
    names: series.map((s) => s.name),
    values: (name, from, to) => byName.get(name)?.subarray(from ?? 0, to),
  };
}
