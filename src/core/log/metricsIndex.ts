/**
 * `ws_metrics.jsonl`: every numeric field as a series over iterations. When an
 * iteration appears twice (a requeued run logs again after its resume point) the
 * later row wins and the duplication is reported.
 */
import { JsonlFile } from './jsonlFile';
import type { LineSink, UpdateResult } from './jsonlFile';
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

  constructor(
    readonly path: string,
    mapping: FieldMapping = {},
  ) {
    this.iterationKeys = [...(mapping['iteration'] ? [mapping['iteration']] : []), ...METRICS_ITERATION_ALIASES];
    this.file = new JsonlFile(path, this);
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
    const r = await this.file.update(undefined, signal);
    this.chunkDone();
    return r;
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
