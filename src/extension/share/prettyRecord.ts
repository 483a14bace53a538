/**
 * A log record as a reader wants to see it: indented JSON, Python's `NaN` and `Infinity`
 * shown as the log wrote them (JSON.stringify would turn them into null), and the line
 * where each turn's object starts, so that a view can scroll to a turn.
 */
import { NAN_TOKEN, NEG_INF_TOKEN, POS_INF_TOKEN } from '../../core/log/tolerantJson';
import type { SchemaTables } from '../../core/record/schema';

export interface PrettyRecord {
  text: string;
  /** 0-based line of each turn's first line, in turn order (empty when the record has no turns array) */
  turnLines: number[];
}

const BARE: ReadonlyMap<string, string> = new Map([
  [NAN_TOKEN, 'NaN'],
  [POS_INF_TOKEN, 'Infinity'],
  [NEG_INF_TOKEN, '-Infinity'],
]);

/** The record's key that holds its turns, as the reader picks it (a mapped name, the reference name, then the aliases). */
export function turnsKeyOf(record: Record<string, unknown>, tables: SchemaTables): string | undefined {
  const names = tables.trajectory.names.get('turns') ?? [];
  return names.find((n) => Object.hasOwn(record, n) && Array.isArray(record[n]) && tables.trajectory.byName.get(n) === 'turns');
}

class Printer {
  readonly out: string[] = [];
  line = 0;
  readonly turnLines: number[] = [];

  constructor(private readonly turnsKey: string | undefined) {}

  private put(s: string): void {
    this.out.push(s);
  }

  private newline(depth: number): void {
    this.out.push('\n', '  '.repeat(depth));
    this.line++;
  }

  value(v: unknown, depth: number, turns = false): void {
    if (typeof v === 'string') this.put(BARE.get(v) ?? JSON.stringify(v));
    else if (typeof v === 'number') this.put(Number.isFinite(v) ? JSON.stringify(v) : String(v));
    else if (v === null || typeof v !== 'object') this.put(JSON.stringify(v) ?? 'null');
    else if (Array.isArray(v)) this.array(v, depth, turns);
    else this.object(v as Record<string, unknown>, depth);
  }

  private array(a: unknown[], depth: number, turns: boolean): void {
    if (a.length === 0) return this.put('[]');
    this.put('[');
    a.forEach((x, i) => {
      this.newline(depth + 1);
      if (turns) this.turnLines.push(this.line);
      this.value(x, depth + 1);
      if (i < a.length - 1) this.put(',');
    });
    this.newline(depth);
    this.put(']');
  }

  private object(o: Record<string, unknown>, depth: number): void {
    const keys = Object.keys(o);
    if (keys.length === 0) return this.put('{}');
    this.put('{');
    keys.forEach((k, i) => {
      this.newline(depth + 1);
      this.put(`${JSON.stringify(k)}: `);
      this.value(o[k], depth + 1, depth === 0 && k === this.turnsKey);
      if (i < keys.length - 1) this.put(',');
    });
    this.newline(depth);
    this.put('}');
  }
}

/** `record` parsed by `parseTolerant`; `turnsKey` the top-level key of its turns (see `turnsKeyOf`). */
export function prettyRecord(record: unknown, turnsKey: string | undefined): PrettyRecord {
  const p = new Printer(turnsKey);
  p.value(record, 0);
  return { text: p.out.join('') + '\n', turnLines: p.turnLines };
}
