/**
 * `logs/eval_log.jsonl` (docs/format.md section 8): one line per evaluated episode of a
 * checkpoint, read incrementally like the other logs. A line that is not a counted
 * episode (not JSON, no whole-number iteration, no finite reward, no task key) is
 * skipped with its line number; the rest is an index of episodes with their offsets.
 */
import { JsonlFile, readRange } from '../log/jsonlFile';
import type { LineSink, ReadLimits, UpdateResult } from '../log/jsonlFile';
import { numberOf, parseTolerant } from '../log/tolerantJson';
import { nestingDepth } from '../log/creditIndex';
import { MAX_DEPTH } from '../log/fastScan';
import { Emitter } from '../log/events';
import type { FieldMapping } from '../record/schema';
import { errorMessage } from '../errorMessage';
import { actionNames, evalNames } from './evalSchema';
import type { EvalField, EvalNames } from './evalSchema';

/** One counted episode: where it is in the file and what it earned. */
export interface EvalEpisode {
  iteration: number;
  /** the task key: `task_id`, else `instruction` */
  task: string;
  /** the logged sample, else its place among the episodes of this task at this checkpoint (0, 1, ...) */
  sample: number;
  reward: number;
  /** number of turns logged (0 without `turns`) */
  turns: number;
  line: number;
  offset: number;
  length: number;
}

/** An episode read back from its bytes, for the trajectory browser. */
export interface EvalEpisodeView {
  iteration: number;
  task: string;
  taskId: string | undefined;
  instruction: string | undefined;
  sample: number;
  reward: number;
  /** the executed actions, in order ('' where a turn has none) */
  turns: { index: number; action: string }[];
  line: number;
}

/** A record's fields by section 8's names, or why it is not a counted episode. */
type Parsed =
  | { ok: true; iteration: number; task: string; taskId?: string; instruction?: string; sample?: number; reward: number; turns: unknown[] }
  | { ok: false; message: string };

const isWhole = (v: number | undefined): v is number => v !== undefined && Number.isSafeInteger(v) && v >= 0;

function field(rec: Record<string, unknown>, names: EvalNames, f: EvalField): unknown {
  for (const k of names[f]) if (Object.hasOwn(rec, k)) return rec[k];
  return undefined;
}

/** A task key: a non-empty string, or a whole number written as text. */
function keyOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > 0 ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** Reads one line's text as section 8 says, with the names of `names`. */
export function parseEvalLine(text: string, names: EvalNames): Parsed {
  let obj: unknown;
  try {
    obj = parseTolerant(text);
  } catch (e) {
    return { ok: false, message: `not JSON: ${errorMessage(e)}` };
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return { ok: false, message: 'not a JSON object' };
  const rec = obj as Record<string, unknown>;
  const itRaw = field(rec, names, 'iteration');
  const iteration = typeof itRaw === 'boolean' ? undefined : numberOf(itRaw);
  if (!isWhole(iteration)) return { ok: false, message: `no whole-number iteration (looked for ${names.iteration.join(', ')})` };
  const reward = numberOf(field(rec, names, 'reward'));
  if (reward === undefined || !Number.isFinite(reward))
    return { ok: false, message: `no finite reward (looked for ${names.reward.join(', ')})` };
  const taskId = keyOf(field(rec, names, 'task_id'));
  const instr = field(rec, names, 'instruction');
  const instruction = typeof instr === 'string' && instr.length > 0 ? instr : undefined;
  const task = taskId ?? instruction;
  if (task === undefined) return { ok: false, message: `no task key (looked for ${[...names.task_id, ...names.instruction].join(', ')})` };
  const sRaw = field(rec, names, 'sample');
  const sample = typeof sRaw === 'boolean' ? undefined : numberOf(sRaw);
  const turns = field(rec, names, 'turns');
  return {
    ok: true,
    iteration,
    task,
    ...(taskId !== undefined ? { taskId } : {}),
    ...(instruction !== undefined ? { instruction } : {}),
    ...(isWhole(sample) ? { sample } : {}),
    reward,
    turns: Array.isArray(turns) ? (turns as unknown[]) : [],
  };
}

export class EvalLog implements LineSink {
  private list: EvalEpisode[] = [];
  private readonly file: JsonlFile;
  private readonly names: EvalNames;
  private readonly actions: readonly string[];
  /** episodes seen per `iteration \0 task`, for the sample of an episode that logs none */
  private seen = new Map<string, number>();
  private published = 0;
  private readonly changed = new Emitter<{ kind: 'append' | 'reset' }>();
  readonly onDidChange = this.changed.event;
  /** changes whenever the episodes change */
  version = 0;

  constructor(
    readonly path: string,
    mapping: FieldMapping = {},
    private readonly limits: ReadLimits = {},
  ) {
    this.names = evalNames(mapping);
    this.actions = actionNames(mapping);
    this.file = new JsonlFile(path, this, limits);
  }

  get episodes(): readonly EvalEpisode[] {
    return this.list;
  }

  get skippedLines(): { line: number; message: string }[] {
    return this.file.skipped;
  }

  get skippedCount(): number {
    return this.file.skippedCount;
  }

  update(signal?: AbortSignal): Promise<UpdateResult> {
    return this.file.update(undefined, signal);
  }

  /** Warnings for the report: the lines skipped, naming the file and the first lines. */
  warnings(): string[] {
    const n = this.skippedCount;
    if (n === 0) return [];
    const first = this.skippedLines
      .slice(0, 5)
      .map((s) => `line ${s.line} (${s.message})`)
      .join('; ');
    return [`${this.path}: skipped ${n} line(s) that are not counted evaluation episodes: ${first}${n > 5 ? '; ...' : ''}`];
  }

  reset(): void {
    this.list = [];
    this.seen = new Map();
    this.published = 0;
    this.version++;
    this.changed.fire({ kind: 'reset' });
  }

  mark(): number {
    return this.list.length;
  }

  rollback(mark: number): void {
    if (mark >= this.list.length) return;
    for (const e of this.list.slice(mark)) {
      const k = `${e.iteration}\u0000${e.task}`;
      this.seen.set(k, (this.seen.get(k) ?? 1) - 1);
    }
    this.list.length = mark;
    if (this.published > mark) this.published = mark;
    this.version++;
  }

  chunkDone(): void {
    if (this.list.length === this.published) return;
    this.published = this.list.length;
    this.changed.fire({ kind: 'append' });
  }

  line(buf: Buffer, start: number, end: number, offset: number, lineNo: number): string | undefined {
    // the credit log's limit: JSON.parse of a deeper line recurses as deep as it goes
    const depth = nestingDepth(buf, start, end);
    if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels (${depth})`;
    const p = parseEvalLine(buf.toString('utf8', start, end), this.names);
    if (!p.ok) return p.message;
    const k = `${p.iteration}\u0000${p.task}`;
    const nth = this.seen.get(k) ?? 0;
    this.seen.set(k, nth + 1);
    this.list.push({
      iteration: p.iteration,
      task: p.task,
      sample: p.sample ?? nth,
      reward: p.reward,
      turns: p.turns.length,
      line: lineNo,
      offset,
      length: end - start,
    });
    this.version++;
    return undefined;
  }

  /** The episode at `i` read back from its bytes (they are read again: the file is the truth). */
  async read(i: number): Promise<EvalEpisodeView> {
    const e = this.list[i];
    if (!e) throw new RangeError(`no evaluation episode ${i} in ${this.path}`);
    return this.view(e, await this.bytes(e.offset, e.length));
  }

  /**
   * The episodes at `indices` (ascending) read back in runs of nearby bytes: one read of up
   * to `maxBytes` serves every episode in it (a checkpoint's episodes are one read, not one
   * open each).
   */
  async *readMany(indices: readonly number[], maxBytes = 8 << 20): AsyncGenerator<EvalEpisodeView> {
    let k = 0;
    while (k < indices.length) {
      const first = this.episodeAt(indices[k]!);
      let end = first.offset + first.length;
      let j = k + 1;
      for (; j < indices.length; j++) {
        const e = this.episodeAt(indices[j]!);
        if (e.offset < end || e.offset + e.length - first.offset > maxBytes) break;
        end = e.offset + e.length;
      }
      const bytes = await this.bytes(first.offset, end - first.offset);
      for (let q = k; q < j; q++) {
        const e = this.episodeAt(indices[q]!);
        yield this.view(e, bytes.subarray(e.offset - first.offset, e.offset - first.offset + e.length));
      }
      k = j;
    }
  }

  private episodeAt(i: number): EvalEpisode {
    const e = this.list[i];
    if (!e) throw new RangeError(`no evaluation episode ${i} in ${this.path}`);
    return e;
  }

  private bytes(offset: number, length: number): Promise<Buffer> {
    return this.limits.source ? this.limits.source.readRange(offset, length) : readRange(this.path, offset, length);
  }

  private view(e: EvalEpisode, bytes: Buffer): EvalEpisodeView {
    const p = parseEvalLine(bytes.toString('utf8'), this.names);
    if (!p.ok) throw new Error(`${this.path}: line ${e.line} changed since it was read (${p.message})`);
    return {
      iteration: p.iteration,
      task: p.task,
      taskId: p.taskId,
      instruction: p.instruction,
      sample: e.sample,
      reward: p.reward,
      turns: p.turns.map((t, index) => ({ index, action: this.actionOf(t) })),
      line: e.line,
    };
  }

  private actionOf(turn: unknown): string {
    if (turn === null || typeof turn !== 'object') return '';
    const rec = turn as Record<string, unknown>;
    for (const k of this.actions) if (typeof rec[k] === 'string' && Object.hasOwn(rec, k)) return rec[k];
    return '';
  }
}
