/**
 * The index of a credit log: for every trajectory its byte range and a compact
 * summary in typed columns, so that filtering, sorting, paging and the run report
 * need no re-read, and one trajectory is read back by its offset when opened.
 */
import { FastScanner, MAX_DEPTH } from './fastScan';
import { JsonlFile, readRange } from './jsonlFile';
import { errorMessage } from '../errorMessage';
import type { ByteSource, FileState, LineSink, ReadLimits, ReadProgress, SkippedLine, UpdateResult } from './jsonlFile';
import { buildSchemaTables, schemaCheck, SchemaObserver } from '../record/schema';
import type { FieldMapping, SchemaCheck, SchemaTables } from '../record/schema';
import { normaliseRecord, summarize } from '../record/trajectory';
import { Flag } from '../../shared/shapes';
import type { TrajectoryCore, TrajectoryView } from '../record/trajectory';
import { parseTolerant } from './tolerantJson';
import type { CreditParams } from '../credit/credit';
import { DEFAULT_CREDIT } from '../credit/credit';
import type { MatchOptions } from '../credit/actions';
import { DEFAULT_MATCH } from '../credit/actions';
import { Emitter } from './events';
import { columnOf } from './indexCodec';
import type { DecodedFrame, Section } from './indexCodec';
import { stableJson } from './indexStore';
import { SavedLifecycle } from './savedLifecycle';
import type { CacheUse } from './savedLifecycle';
import type { IndexStore } from './indexStore';
import { observerFromJson, observerToJson } from './observerCodec';
import { indexInParts } from './threads/pool';
import type { ThreadOptions, ThreadTiming } from './threads/pool';
import type { MergedParts } from './threads/merge';
import { PartObserver } from './threads/parts';
import type { PartResult, PartTask } from './threads/parts';
import { withReadRoots } from './logFile';
import { StringActions } from '../behaviour/actionSeq';
import type { ActionSeq } from '../behaviour/actionSeq';
import { storedBehaviour } from '../behaviour/tagTrajectory';
import { DEFAULT_BEHAVIOUR, tagBits } from '../behaviour/tags';
import type { BehaviourOptions } from '../behaviour/tags';

export interface IndexOptions {
  credit: CreditParams;
  match: MatchOptions;
  mapping: FieldMapping;
  /**
   * `horizon` and `theta` of the behaviour tags (default `DEFAULT_BEHAVIOUR`). Not part of a
   * saved index's key: the index stores what the tags depend on, and the tags that depend
   * on these are derived from it when asked (`tags`).
   */
  behaviour?: BehaviourOptions;
}

/** The options a saved index depends on (all but `behaviour`). */
export function keyedOptions(o: IndexOptions): Omit<IndexOptions, 'behaviour'> {
  return { credit: o.credit, match: o.match, mapping: o.mapping };
}

/**
 * How an index is built: a folder of saved indexes to start from and save to (none:
 * always from byte 0), and the threads a first read of a large log uses (none: one).
 */
export interface IndexEngine {
  store?: IndexStore;
  threads?: ThreadOptions;
  /**
   * the log's bytes when it is not a local file (a Hub log read in place); its saved index is then kept by its owner (`snapshot`,
   * `restoreFrame`)
   */
  source?: ByteSource;
  /** for the benchmark's baseline only: index without the behaviour tags (their columns stay 0) */
  noBehaviour?: boolean;
}

/** How the last update started: from nothing, from a saved index of the unchanged file, or of the file before it grew. */
export type { CacheUse } from './savedLifecycle';
const KIND = 'credit';

export const DEFAULT_INDEX_OPTIONS: IndexOptions = { credit: DEFAULT_CREDIT, match: DEFAULT_MATCH, mapping: {} };

type F64 = Float64Array;
type U16 = Uint16Array;

/** Column names of the summary; each is a typed array indexed by row. */
export interface Columns {
  offset: F64;
  length: Uint32Array;
  line: Uint32Array;
  /** whole numbers up to 2^53 - 1, held exactly */
  iteration: F64;
  group: F64;
  rollout: F64;
  reward: F64;
  A: F64;
  turns: U16;
  labeledTurns: U16;
  maskedTurns: U16;
  fallbackTurns: U16;
  creditedTurns: U16;
  flipBase: U16;
  signFlips: U16;
  argmaxTurns: U16;
  cCount: U16;
  sumC: F64;
  sumC2: F64;
  cMismatches: U16;
  aTMismatches: U16;
  sameMismatches: U16;
  flags: U16;
  /** section 7: the bits that depend on the actions and labels alone (`STORED_BITS`) */
  behaviour: U16;
  /** collapsed turns, and credited turns with a non-empty comparison set */
  collapsedTurns: U16;
  comparedTurns: U16;
}

const COLUMN_TYPES: { [K in keyof Columns]: new (n: number) => Columns[K] } = {
  offset: Float64Array,
  length: Uint32Array,
  line: Uint32Array,
  iteration: Float64Array,
  group: Float64Array,
  rollout: Float64Array,
  reward: Float64Array,
  A: Float64Array,
  turns: Uint16Array,
  labeledTurns: Uint16Array,
  maskedTurns: Uint16Array,
  fallbackTurns: Uint16Array,
  creditedTurns: Uint16Array,
  flipBase: Uint16Array,
  signFlips: Uint16Array,
  argmaxTurns: Uint16Array,
  cCount: Uint16Array,
  sumC: Float64Array,
  sumC2: Float64Array,
  cMismatches: Uint16Array,
  aTMismatches: Uint16Array,
  sameMismatches: Uint16Array,
  flags: Uint16Array,
  behaviour: Uint16Array,
  collapsedTurns: Uint16Array,
  comparedTurns: Uint16Array,
};

function allocColumns(n: number): Columns {
  const out: Partial<Record<keyof Columns, unknown>> = {};
  for (const k of Object.keys(COLUMN_TYPES) as (keyof Columns)[]) out[k] = new COLUMN_TYPES[k](n);
  return out as Columns;
}

/** One row of the trajectory table: the engine's type (the wire's `RowView` is made from it by the presenter `rowView`). */
export interface TrajectoryRow {
  row: number;
  iteration: number;
  group: number;
  rollout: number;
  reward: number;
  A: number;
  labeled: boolean;
  turns: number;
  labeledTurns: number;
  creditedTurns: number;
  /** mean of logged c over credited turns; null when none */
  meanC: number | null;
  signFlips: number;
  argmaxTurns: number;
  fallbackTurns: number;
  flags: number;
  line: number;
  /** the behaviour tags (`Tag` bits) with the index's horizon and theta (always set by `row`) */
  tags?: number;
}

export interface IndexChange {
  kind: 'append' | 'reset';
  /** rows before this change (0 on reset) */
  from: number;
  count: number;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

const U16_MAX = 65535;
const u16 = (n: number): number => (n > U16_MAX ? U16_MAX : n);

export class CreditIndex implements LineSink {
  private cols: Columns = allocColumns(1024);
  private n = 0;
  private readonly tables: SchemaTables;
  private readonly scanner: FastScanner;
  readonly observer: SchemaObserver;
  private readonly file: JsonlFile;
  private readonly changed = new Emitter<IndexChange>();
  /** Fires after each read that added rows, or after a re-index. */
  readonly onDidChange = this.changed.event;
  private readonly progressEmitter = new Emitter<ReadProgress>();
  /** Fires while a read goes on, after each chunk. */
  readonly onProgress = this.progressEmitter.event;
  /** rows read by the slow path (the fast reader could not read them) */
  slowPathRows = 0;
  private published = 0;
  private readonly behaviourScratch = { stored: 0, collapsedTurns: 0, comparedTurns: 0 };
  /** changes whenever the rows change (append, rollback, reset) */
  version = 0;
  /**
   * changes whenever rows already held may have been replaced (a reset, a restored or adopted index): a reader of rows carried from
   * call to call starts again
   */
  generation = 0;

  private readonly saved: SavedLifecycle;
  private threading: Promise<void> | undefined;
  private readonly limits: ReadLimits | undefined;
  /** parts the first read was indexed in by several threads (0: one thread) */
  threadedParts = 0;
  /** worker threads that indexed them */
  threadsUsed = 0;
  /** where the threaded first read spent its CPU time (for the benchmark) */
  threadTiming: ThreadTiming | undefined;
  /** why the first read fell back to one thread, when it tried threads and could not */
  threadError: string | undefined;

  constructor(
    readonly path: string,
    readonly options: IndexOptions = DEFAULT_INDEX_OPTIONS,
    limits?: ReadLimits,
    private readonly engine: IndexEngine = {},
    observer: SchemaObserver = new SchemaObserver(),
  ) {
    this.observer = observer;
    this.limits = limits;
    this.tables = buildSchemaTables(options.mapping);
    this.scanner = new FastScanner(this.tables, options.match, engine.noBehaviour !== true);
    this.file = new JsonlFile(path, this, engine.source ? { ...limits, source: engine.source } : limits);
    this.saved = new SavedLifecycle(engine.store, {
      path,
      kind: KIND,
      optionsKey: this.optionsKey,
      storeName: (store) => store.nameOf(KIND, path, keyedOptions(options)),
      restore: (frame, committed) => this.restore(frame, committed),
      frameToSave: () => {
        const state = this.file.state();
        return state && { committed: state.committed, frame: () => this.snapshotOf(state) };
      },
    });
  }

  get size(): number {
    return this.n;
  }

  get columns(): Readonly<Columns> {
    return this.cols;
  }

  get skippedLines(): { line: number; message: string }[] {
    return this.file.skipped;
  }

  get skippedCount(): number {
    return this.file.skippedCount;
  }

  get pendingTail(): boolean {
    return this.file.pendingTail;
  }

  get bytesIndexed(): number {
    return this.file.bytesRead;
  }

  /** Reads whatever is new in the file (all of it the first time). */
  async update(signal?: AbortSignal): Promise<UpdateResult> {
    let started!: () => void;
    this.starting = new Promise<void>((r) => (started = r));
    try {
      await this.saved.load();
      // a cancelled threaded read is tried again by the next update
      if (this.engine.threads) {
        const t = this.engine.threads;
        const onStarted = (): void => {
          started();
          t.onStarted?.();
        };
        await (this.threading ??= this.indexThreaded({ ...t, onStarted }, signal).catch((e: unknown) => {
          this.threading = undefined;
          throw e;
        }));
      }
    } finally {
      started();
    }
    const r = await this.file.update((p) => this.progressEmitter.fire(p), signal);
    this.chunkDone();
    await this.saved.afterUpdate(r.kind !== 'none');
    return r;
  }

  private starting: Promise<void> | undefined;

  /**
   * Resolves once the update under way has started its worker threads, or knows it reads on
   * this thread alone (a saved index, a small log, one thread). The run's other logs wait for
   * it: parsed first, they kept this thread from starting the workers for half a second.
   */
  started(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  /** what the first update started from */
  get cacheUse(): CacheUse {
    return this.saved.cacheUse;
  }

  /** why the saved index could not be written, when it could not (saving is best effort) */
  get cacheError(): string | undefined {
    return this.saved.cacheError;
  }

  private get optionsKey(): string {
    return stableJson(keyedOptions(this.options));
  }

  /** The horizon and theta the tags are read with by default. */
  get behaviourOptions(): BehaviourOptions {
    return this.options.behaviour ?? DEFAULT_BEHAVIOUR;
  }

  /** A first read with worker threads, when nothing was restored and the file is large enough; else nothing (one thread reads it). */
  private async indexThreaded(t: ThreadOptions, signal?: AbortSignal): Promise<void> {
    if (this.file.bytesRead > 0 || this.n > 0) return;
    try {
      const merged = await indexInParts(this.path, this.options, this.limits, t, signal, indexPart);
      if (!merged) return;
      this.adopt(merged);
      this.threadedParts = merged.parts;
      this.threadsUsed = merged.threads;
      this.threadTiming = merged.timing;
    } catch (e) {
      if (signal?.aborted) throw e;
      this.threadError = errorMessage(e);
    }
  }

  /** Takes the merged index of the file's parts, as if one thread had read them. */
  private adopt(m: MergedParts): void {
    const cols: Partial<Record<keyof Columns, unknown>> = {};
    for (const k of Object.keys(COLUMN_TYPES) as (keyof Columns)[]) {
      const c = m.columns[k];
      if (!(c instanceof COLUMN_TYPES[k])) throw new Error(`the parts sent no ${k} column`);
      cols[k] = c;
    }
    this.cols = cols as Columns;
    this.n = m.rows;
    this.version++;
    this.generation++;
    this.slowPathRows = m.slowPathRows;
    observerFromJson(this.observer, observerToJson(m.observer));
    this.file.restore(m.file);
  }

  /** Indexes the whole lines of [start, end) alone, numbering lines from 1 (in a worker thread). */
  async indexPart(start: number, end: number, align: number, signal?: AbortSignal): Promise<void> {
    await this.file.readPart(start, end, align, signal);
    this.chunkDone();
  }

  /** What `indexPart` found, for the merge. */
  partResult(): Omit<PartResult, 'overflow'> {
    const columns: PartResult['columns'] = {};
    for (const k of Object.keys(COLUMN_TYPES) as (keyof Columns)[]) columns[k] = this.cols[k].slice(0, this.n);
    return {
      rows: this.n,
      columns,
      lines: this.file.lineCount,
      skipped: [...this.file.skipped],
      skippedCount: this.file.skippedCount,
      observer: observerToJson(this.observer),
      slowPathRows: this.slowPathRows,
    };
  }

  /** Writes the index as it is now (skipped while a provisional last line is held). */
  /** The index as it is now, to be kept by a caller that saves it elsewhere; undefined while a provisional last line is held. */
  snapshot(): { header: Record<string, unknown>; sections: Section[]; committed: number } | undefined {
    const state = this.file.state();
    return state ? { ...this.snapshotOf(state), committed: state.committed } : undefined;
  }

  private snapshotOf(state: FileState): { header: Record<string, unknown>; sections: Section[] } {
    const sections: Section[] = (Object.keys(COLUMN_TYPES) as (keyof Columns)[]).map((k) => ({
      name: k,
      count: this.n,
      data: this.cols[k],
    }));
    const header = {
      kind: KIND,
      options: this.optionsKey,
      rows: this.n,
      file: state,
      observer: observerToJson(this.observer),
      slowPathRows: this.slowPathRows,
    };
    return { header, sections };
  }

  /** Starts from a frame of `snapshot()` indexed up to `committed` (its options must be these); false when it does not check out. */
  restoreFrame(frame: DecodedFrame, committed: number): boolean {
    return frame.header['kind'] === KIND && frame.header['options'] === this.optionsKey && this.restore(frame, committed);
  }

  /** Takes rows, schema and file state from a saved frame; false (nothing changed) when any part does not check out. */
  private restore(frame: DecodedFrame, committed: number): boolean {
    const h = frame.header;
    const n = h['rows'];
    const file = h['file'] as Record<string, unknown> | undefined;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || typeof h['slowPathRows'] !== 'number') return false;
    if (!file || file['committed'] !== committed || !isCount(file['lines']) || !isCount(file['skippedCount'])) return false;
    const skipped = file['skipped'];
    if (
      !Array.isArray(skipped) ||
      !skipped.every((x) => isCount((x as { line?: unknown })?.line) && typeof (x as { message?: unknown }).message === 'string')
    )
      return false;
    const lines = file['lines'];
    const cols: Partial<Record<keyof Columns, unknown>> = {};
    for (const k of Object.keys(COLUMN_TYPES) as (keyof Columns)[]) {
      const c = columnOf(frame, k, COLUMN_TYPES[k] as new (n: number) => Columns[typeof k], Math.max(1024, n));
      if (!c || frame.sections.get(k)!.bytes.length !== n * c.BYTES_PER_ELEMENT) return false;
      cols[k] = c;
    }
    const c = cols as Columns;
    for (let i = 0; i < n; i++) {
      const end = c.offset[i]! + c.length[i]!;
      if (!(c.offset[i]! >= 0 && end <= committed && c.line[i]! >= 1 && c.line[i]! <= lines)) return false;
    }
    const observer = new SchemaObserver();
    if (!observerFromJson(observer, h['observer'])) return false;
    this.cols = c;
    this.n = n;
    this.version++;
    this.generation++;
    this.slowPathRows = h['slowPathRows'];
    observerFromJson(this.observer, h['observer']);
    this.file.restore({ committed, lines, skipped: skipped as SkippedLine[], skippedCount: file['skippedCount'] });
    return true;
  }

  schemaCheck(): SchemaCheck {
    return schemaCheck(this.observer);
  }

  // ---- LineSink

  reset(): void {
    this.version++;
    this.generation++;
    this.n = 0;
    this.cols = allocColumns(1024);
    this.observer.reset();
    this.slowPathRows = 0;
    this.published = 0;
    this.changed.fire({ kind: 'reset', from: 0, count: 0 });
  }

  mark(): number {
    return this.n;
  }

  rollback(mark: number): void {
    if (mark < this.n) this.version++;
    this.n = Math.min(this.n, mark);
    if (this.published > this.n) this.published = this.n;
  }

  chunkDone(): void {
    this.scanner.flushInto(this.observer);
    if (this.n > this.published) {
      this.changed.fire({ kind: 'append', from: this.published, count: this.n - this.published });
      this.published = this.n;
    }
  }

  line(buf: Buffer, start: number, end: number, fileOffset: number, lineNo: number): string | undefined {
    let core: TrajectoryCore;
    let actions: ActionSeq | undefined;
    try {
      core = this.scanner.scan(buf, start, end);
      actions = this.scanner.actions;
    } catch {
      const r = this.exact(buf, start, end, lineNo);
      if (typeof r === 'string') return r;
      core = r.core;
      actions = this.scanner.actions && new StringActions(r.actions, this.options.match);
      this.slowPathRows++;
    }
    this.push(core, actions, fileOffset, end - start, lineNo);
    return undefined;
  }

  /** The slow path, which defines the semantics: JSON.parse and normaliseRecord; a string is why the line is skipped. */
  private exact(buf: Buffer, start: number, end: number, lineNo: number): { core: TrajectoryCore; actions: (string | null)[] } | string {
    const depth = nestingDepth(buf, start, end);
    if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels (${depth})`;
    let obj: unknown;
    try {
      obj = parseTolerant(buf.toString('utf8', start, end));
    } catch (e) {
      return `not JSON: ${errorMessage(e)}`;
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return 'not a JSON object';
    // a record that cannot be placed leaves no trace in the schema check: read it against a scratch observer first
    const probe = normaliseRecord(obj as Record<string, unknown>, this.tables);
    if (probe.refused !== undefined) return probe.refused;
    const n = normaliseRecord(obj as Record<string, unknown>, this.tables, this.scanner.slowObserver);
    for (const name of n.wrongTypes) this.observer.seeWrongType(name, lineNo);
    return { core: n.core, actions: n.view.turns.map((t) => t.action) };
  }

  private push(t: TrajectoryCore, actions: ActionSeq | undefined, offset: number, length: number, line: number): void {
    if (this.n === this.cols.offset.length) this.grow();
    this.version++;
    const s = summarize(t, this.options.credit, this.options.match);
    const c = this.cols;
    const i = this.n++;
    c.offset[i] = offset;
    c.length[i] = length;
    c.line[i] = line;
    c.iteration[i] = t.iteration;
    c.group[i] = t.group;
    c.rollout[i] = t.rollout;
    c.reward[i] = t.reward;
    c.A[i] = t.A;
    c.turns[i] = u16(s.turns);
    c.labeledTurns[i] = u16(s.labeledTurns);
    c.maskedTurns[i] = u16(s.maskedTurns);
    c.fallbackTurns[i] = u16(s.fallbackTurns);
    c.creditedTurns[i] = u16(s.creditedTurns);
    c.flipBase[i] = u16(s.flipBase);
    c.signFlips[i] = u16(s.signFlips);
    c.argmaxTurns[i] = u16(s.argmaxTurns);
    c.cCount[i] = u16(s.cCount);
    c.sumC[i] = s.sumC;
    c.sumC2[i] = s.sumC2;
    c.cMismatches[i] = u16(s.cMismatches);
    c.aTMismatches[i] = u16(s.aTMismatches);
    c.sameMismatches[i] = u16(s.sameMismatches);
    c.flags[i] = s.flags;
    if (actions) {
      const b = storedBehaviour(actions, t.turns, this.options.match, this.behaviourScratch);
      c.behaviour[i] = b.stored;
      c.collapsedTurns[i] = u16(b.collapsedTurns);
      c.comparedTurns[i] = u16(b.comparedTurns);
    }
  }

  private grow(): void {
    const next = allocColumns(this.cols.offset.length * 2);
    for (const k of Object.keys(COLUMN_TYPES) as (keyof Columns)[]) (next[k] as Float64Array).set(this.cols[k]);
    this.cols = next;
  }

  // ---- reading back

  row(i: number): TrajectoryRow {
    const c = this.cols;
    return {
      row: i,
      iteration: c.iteration[i]!,
      group: c.group[i]!,
      rollout: c.rollout[i]!,
      reward: c.reward[i]!,
      A: c.A[i]!,
      labeled: (c.flags[i]! & Flag.Labeled) !== 0,
      turns: c.turns[i]!,
      labeledTurns: c.labeledTurns[i]!,
      creditedTurns: c.creditedTurns[i]!,
      meanC: c.cCount[i]! > 0 ? c.sumC[i]! / c.cCount[i]! : null,
      signFlips: c.signFlips[i]!,
      argmaxTurns: c.argmaxTurns[i]!,
      fallbackTurns: c.fallbackTurns[i]!,
      flags: c.flags[i]!,
      line: c.line[i]!,
      tags: this.tags(i),
    };
  }

  /** Counted by section 6 and 7: a whole-number iteration and a finite reward. */
  counted(i: number): boolean {
    return this.cols.iteration[i]! >= 0 && Number.isFinite(this.cols.reward[i]!);
  }

  /** The behaviour tags of row `i` (`Tag` bits), with the index's horizon and theta unless given; 0 for a row section 7 does not count. */
  tags(i: number, o: BehaviourOptions = this.behaviourOptions): number {
    const c = this.cols;
    if (!this.counted(i)) return 0;
    return tagBits({ stored: c.behaviour[i]!, turns: c.turns[i]!, reward: c.reward[i]!, cCount: c.cCount[i]!, sumC: c.sumC[i]! }, o);
  }

  /** Whether any row has a labeled turn (a run without: its label tags are null). */
  hasLabeledTurns(): boolean {
    const l = this.cols.labeledTurns;
    for (let i = 0; i < this.n; i++) if (l[i]! > 0) return true;
    return false;
  }

  /** Reads one trajectory back from the file by its offset. */
  async read(i: number): Promise<TrajectoryView> {
    if (i < 0 || i >= this.n) throw new RangeError(`no trajectory at row ${i}`);
    const bytes = await this.bytesOf(i);
    let obj: unknown;
    try {
      obj = parseTolerant(bytes.toString('utf8'));
    } catch (e) {
      // the fast reader does not check escapes inside the strings it skips (\x, \u12): such a line ends here
      throw new Error(`${this.path}:${this.cols.line[i]}: not JSON: ${errorMessage(e)}`);
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
      throw new Error(`${this.path}:${this.cols.line[i]}: the record changed on disk`);
    return normaliseRecord(obj as Record<string, unknown>, this.tables).view;
  }

  /** Raw text of a record, for text search. */
  async rawText(i: number): Promise<string> {
    return (await this.bytesOf(i)).toString('utf8');
  }

  private bytesOf(i: number): Promise<Buffer> {
    return this.readSpan(this.cols.offset[i]!, this.cols.length[i]!);
  }

  /** The log's bytes `[offset, offset + length)`, from the file or from its source (a Hub log read in place: checked ranges). */
  readSpan(offset: number, length: number): Promise<Buffer> {
    return this.engine.source ? this.engine.source.readRange(offset, length) : readRange(this.path, offset, length);
  }

  /** The log is read from a source (a Hub log in place), not from a local file. */
  get remote(): boolean {
    return this.engine.source !== undefined;
  }

  /** First row of (iteration, group, rollout), or -1. */
  find(iteration: number, group: number, rollout: number): number {
    const c = this.cols;
    for (let i = 0; i < this.n; i++) {
      if (c.iteration[i] === iteration && c.group[i] === group && c.rollout[i] === rollout) return i;
    }
    return -1;
  }

  /** Rows of one group, in rollout order. */
  groupRows(iteration: number, group: number): number[] {
    const c = this.cols;
    const out: number[] = [];
    for (let i = 0; i < this.n; i++) if (c.iteration[i] === iteration && c.group[i] === group) out.push(i);
    return out.sort((a, b) => c.rollout[a]! - c.rollout[b]!);
  }

  /** Distinct iterations in ascending order. */
  iterations(): number[] {
    const set = new Set<number>();
    const it = this.cols.iteration;
    for (let i = 0; i < this.n; i++) set.add(it[i]!);
    return [...set].sort((a, b) => a - b);
  }
}

/** Deepest nesting of arrays and objects in a line, outside strings; linear, no recursion. */
export function nestingDepth(buf: Buffer, start: number, end: number): number {
  let depth = 0;
  let max = 0;
  for (let p = start; p < end; p++) {
    const c = buf[p];
    if (c === 0x22) {
      for (p++; p < end && buf[p] !== 0x22; p++) if (buf[p] === 0x5c) p++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** One part of a log indexed on the calling thread: what a worker thread does with a task, and what the main thread does with its own. */
export async function indexPart(task: PartTask, signal?: AbortSignal): Promise<Omit<PartResult, 'cpu'>> {
  const observer = new PartObserver();
  const idx = new CreditIndex(task.path, task.options, task.limits, {}, observer);
  const read = (): Promise<void> => idx.indexPart(task.start, task.end, task.align, signal);
  await (task.roots ? withReadRoots(task.roots, read) : read());
  return { ...idx.partResult(), overflow: observer.overflow };
}
