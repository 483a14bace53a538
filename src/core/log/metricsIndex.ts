/**
 * `ws_metrics.jsonl`: every numeric field as a series over iterations. When an
 * iteration appears twice (a requeued run logs again after its resume point) the
 * later row wins and the duplication is reported.
 */
import { stat } from 'node:fs/promises';
import { JsonlFile } from './jsonlFile';
import type { FileState, LineSink, ReadLimits, SkippedLine, UpdateResult } from './jsonlFile';
import { columnOf } from './indexCodec';
import type { DecodedFrame, Section } from './indexCodec';
import { loadSaved, saveLocal, stableJson } from './indexStore';
import type { IndexStore } from './indexStore';
import { METRICS_ITERATION_ALIASES } from '../record/schema';
import type { FieldMapping } from '../record/schema';
import { numberOf, parseTolerant } from './tolerantJson';
import { Emitter } from './events';

export interface MetricSeries {
  name: string;
  /** aligned with `MetricsTable.iterations`; NaN where missing or not finite */
  values: Float64Array;
}

export interface MetricsTable {
  iterations: number[];
  series: MetricSeries[];
}

export interface DuplicateIteration {
  iteration: number;
  lines: number[];
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

interface Row {
  iteration: number;
  line: number;
  values: Map<string, number>;
}

/** How the last update started: from nothing, from a saved index of the unchanged file, or of the file before it grew. */
export type MetricsCacheUse = 'none' | 'unchanged' | 'grown';

const KIND = 'metrics';
/** A running index is saved at most this often while its file grows (and after its first read). */
const SAVE_INTERVAL_MS = 30_000;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export class MetricsIndex implements LineSink {
  private rows: Row[] = [];
  private readonly file: JsonlFile;
  private readonly iterationKeys: string[];
  private table: MetricsTable | undefined;
  private readonly changed = new Emitter<{ kind: 'append' | 'reset' }>();
  readonly onDidChange = this.changed.event;
  private published = 0;
  /** changes whenever the rows change */
  version = 0;
  /** rows that had no iteration field */
  rowsWithoutIteration = 0;

  /** what the first update started from */
  cacheUse: MetricsCacheUse = 'none';
  /** why the saved index could not be written, when it could not (saving is best effort) */
  cacheError: string | undefined;
  private loading: Promise<void> | undefined;
  private lastSave = 0;

  /** `engine.store`: a folder of saved indexes to start from and save to (none: always from byte 0). */
  constructor(
    readonly path: string,
    mapping: FieldMapping = {},
    private readonly engine: { store?: IndexStore } = {},
    /** `source`: the bytes of a log that is not a local file (a Hub log read in place) */
    limits: ReadLimits = {},
  ) {
    this.iterationKeys = [...(mapping['iteration'] ? [mapping['iteration']] : []), ...METRICS_ITERATION_ALIASES];
    this.file = new JsonlFile(path, this, limits);
  }

  /** The options a saved index must have been built with: the iteration keys looked for, in order. */
  private get optionsKey(): string {
    return stableJson({ iterationKeys: this.iterationKeys });
  }

  private get storeName(): string {
    return this.engine.store!.nameOf(KIND, this.path, { iterationKeys: this.iterationKeys });
  }

  get skippedLines(): { line: number; message: string }[] {
    return this.file.skipped;
  }

  get skippedCount(): number {
    return this.file.skippedCount;
  }

  get rowCount(): number {
    return this.rows.length;
  }

  async update(signal?: AbortSignal): Promise<UpdateResult> {
    const store = this.engine.store;
    if (store) await (this.loading ??= this.loadSaved(store));
    const r = await this.file.update(undefined, signal);
    this.chunkDone();
    if (store && (r.kind !== 'none' || this.lastSave === 0) && Date.now() - this.lastSave >= SAVE_INTERVAL_MS) await this.save(store);
    return r;
  }

  private async loadSaved(store: IndexStore): Promise<void> {
    const saved = await loadSaved(store, this.storeName, KIND, this.path, this.optionsKey).catch(() => undefined);
    if (!saved || !this.restore(saved.frame, saved.identity.committed)) return;
    const st = await stat(this.path).catch(() => undefined);
    const unchanged = st?.size === saved.identity.size && st.mtimeMs === saved.identity.mtimeMs;
    this.cacheUse = unchanged ? 'unchanged' : 'grown';
    if (unchanged) this.lastSave = Date.now();
  }

  /** Writes the rows as they are now (skipped while a provisional last line is held): names once, values by name number. */
  private async save(store: IndexStore): Promise<void> {
    const state = this.file.state();
    if (!state) return;
    this.cacheError = await saveLocal(store, this.storeName, this.path, state.committed, () => this.frameOf(state));
    if (this.cacheError === undefined) this.lastSave = Date.now();
  }

  /** The rows as they are now, to be kept by a caller that saves them elsewhere (a Hub log); undefined while a provisional last line is held. */
  snapshot(): { header: Record<string, unknown>; sections: Section[]; committed: number } | undefined {
    const state = this.file.state();
    return state ? { ...this.frameOf(state), committed: state.committed } : undefined;
  }

  /** Starts from a frame of `snapshot()` indexed up to `committed` (with these iteration keys); false when it does not check out. */
  restoreFrame(frame: DecodedFrame, committed: number): boolean {
    return frame.header['kind'] === KIND && frame.header['options'] === this.optionsKey && this.restore(frame, committed);
  }

  /** The rows as a frame: names once, values by name number. */
  private frameOf(state: FileState): { header: Record<string, unknown>; sections: Section[] } {
    const n = this.rows.length;
    const names = new Map<string, number>();
    let total = 0;
    for (const r of this.rows) total += r.values.size;
    const iteration = new Float64Array(n);
    const line = new Uint32Array(n);
    const counts = new Uint32Array(n);
    const nameOf = new Uint32Array(total);
    const value = new Float64Array(total);
    let at = 0;
    this.rows.forEach((r, i) => {
      iteration[i] = r.iteration;
      line[i] = r.line;
      counts[i] = r.values.size;
      for (const [k, v] of r.values) {
        let id = names.get(k);
        if (id === undefined) names.set(k, (id = names.size));
        nameOf[at] = id;
        value[at++] = v;
      }
    });
    const header = {
      kind: KIND,
      options: this.optionsKey,
      rows: n,
      file: state,
      names: [...names.keys()],
      rowsWithoutIteration: this.rowsWithoutIteration,
    };
    const sections = [
      { name: 'iteration', count: n, data: iteration },
      { name: 'line', count: n, data: line },
      { name: 'counts', count: n, data: counts },
      { name: 'nameOf', count: total, data: nameOf },
      { name: 'value', count: total, data: value },
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
    const iteration = columnOf(frame, 'iteration', Float64Array, 0);
    const line = columnOf(frame, 'line', Uint32Array, 0);
    const counts = columnOf(frame, 'counts', Uint32Array, 0);
    const nameOf = columnOf(frame, 'nameOf', Uint32Array, 0);
    const value = columnOf(frame, 'value', Float64Array, 0);
    if (!iteration || !line || !counts || !nameOf || !value) return false;
    if (iteration.length !== n || line.length !== n || counts.length !== n || nameOf.length !== value.length) return false;
    const rows: Row[] = [];
    let at = 0;
    for (let i = 0; i < n; i++) {
      const it = iteration[i]!;
      const c = counts[i]!;
      if (!Number.isFinite(it) || line[i]! < 1 || line[i]! > lines || at + c > value.length) return false;
      const values = new Map<string, number>();
      for (const end = at + c; at < end; at++) {
        const name = names[nameOf[at]!];
        if (name === undefined || values.has(name)) return false;
        values.set(name, value[at]!);
      }
      rows.push({ iteration: it, line: line[i]!, values });
    }
    if (at !== value.length) return false;
    this.rows = rows;
    this.table = undefined;
    this.version++;
    this.rowsWithoutIteration = h['rowsWithoutIteration'];
    this.file.restore({ committed, lines, skipped: skipped as SkippedLine[], skippedCount: file['skippedCount'] });
    return true;
  }

  reset(): void {
    this.version++;
    this.rows = [];
    this.table = undefined;
    this.published = 0;
    this.rowsWithoutIteration = 0;
    this.changed.fire({ kind: 'reset' });
  }

  mark(): number {
    return this.rows.length;
  }

  rollback(mark: number): void {
    if (mark < this.rows.length) {
      this.rows.length = mark;
      this.table = undefined;
      this.version++;
    }
    if (this.published > mark) this.published = mark;
  }

  chunkDone(): void {
    if (this.rows.length !== this.published) {
      this.published = this.rows.length;
      this.changed.fire({ kind: 'append' });
    }
  }

  line(buf: Buffer, start: number, end: number, _offset: number, lineNo: number): string | undefined {
    let obj: unknown;
    try {
      obj = parseTolerant(buf.toString('utf8', start, end));
    } catch (e) {
      return `not JSON: ${(e as Error).message}`;
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
    const values = new Map<string, number>();
    for (const [k, v] of Object.entries(rec)) {
      if (k === iterKey) continue;
      const n = numberOf(v);
      if (n !== undefined && typeof v !== 'boolean') values.set(k, n);
      else if (v === null) values.set(k, NaN);
    }
    this.rows.push({ iteration, line: lineNo, values });
    this.table = undefined;
    this.version++;
    return undefined;
  }

  /** Iterations logged more than once, with the line numbers of each row. */
  duplicates(): DuplicateIteration[] {
    const lines = new Map<number, number[]>();
    for (const r of this.rows) {
      const l = lines.get(r.iteration);
      if (l) l.push(r.line);
      else lines.set(r.iteration, [r.line]);
    }
    return [...lines].filter(([, l]) => l.length > 1).map(([iteration, l]) => ({ iteration, lines: l }));
  }

  /**
   * Metrics logged with a value that is not a finite number (null, NaN, Infinity) in the
   * rows the table uses (the later row of a repeated iteration), with the first lines.
   */
  nonFinite(): NonFiniteMetric[] {
    const latest = new Map<number, Row>();
    for (const r of this.rows) latest.set(r.iteration, r);
    const out = new Map<string, NonFiniteMetric>();
    for (const r of [...latest.values()].sort((a, b) => a.line - b.line))
      for (const [name, v] of r.values) {
        if (Number.isFinite(v)) continue;
        let m = out.get(name);
        if (!m) out.set(name, (m = { name, count: 0, rows: latest.size, lines: [] }));
        m.count++;
        if (m.lines.length < 5) m.lines.push(r.line);
      }
    return [...out.values()].sort((a, b) => compareMetricNames(a.name, b.name));
  }

  /** The series, the later row winning for a repeated iteration. */
  getTable(): MetricsTable {
    if (this.table) return this.table;
    const latest = new Map<number, Row>();
    for (const r of this.rows) latest.set(r.iteration, r);
    const iterations = [...latest.keys()].sort((a, b) => a - b);
    const names = new Set<string>();
    for (const r of latest.values()) for (const k of r.values.keys()) names.add(k);
    const series: MetricSeries[] = [...names].sort(compareMetricNames).map((name) => {
      const values = new Float64Array(iterations.length);
      iterations.forEach((it, i) => {
        const v = latest.get(it)!.values.get(name);
        values[i] = v === undefined || !Number.isFinite(v) ? NaN : v;
      });
      return { name, values };
    });
    this.table = { iterations, series };
    return this.table;
  }
}

/** `ws/` first, then other prefixes alphabetically, then unprefixed names. */
export function compareMetricNames(a: string, b: string): number {
  const pa = metricPrefix(a);
  const pb = metricPrefix(b);
  const rank = (p: string): number => (p === 'ws' ? 0 : p === '' ? 2 : 1);
  return rank(pa) - rank(pb) || pa.localeCompare(pb) || a.localeCompare(b);
}

export function metricPrefix(name: string): string {
  const i = name.indexOf('/');
  return i > 0 ? name.slice(0, i) : '';
}
