/**
 * The two per-row columns the comparison needs beside the index: the whole-number
 * iteration and the task key. They are read in one sequential pass over the credit log,
 * by the byte ranges the index already holds (so exactly the index's rows), and kept up
 * to date incrementally: `update()` reads only rows added since, reads a provisional
 * last row again, and starts over when the index was re-read.
 */
import { openLog } from '../log/logFile';
import type { FileHandle } from 'node:fs/promises';
import type { CreditIndex } from '../log/creditIndex';
import type { Disposable } from '../log/events';
import { buildSchemaTables } from '../record/schema';
import { TaskKind, TopFieldReader } from './topFields';

const CHUNK = 4 * 1024 * 1024;

export class TaskColumn {
  /** whole-number iteration per row, NaN where it is not one */
  iteration = new Float64Array(1024);
  /** task id per row (index into `tasks`), -1 where the row has no task key */
  task = new Int32Array(1024);
  /** the distinct task keys, by id */
  readonly tasks: string[] = [];
  private readonly ids = new Map<string, number>();
  /** task ids by a hash of their bytes, and those bytes */
  private readonly byHash = new Map<number, number[]>();
  private readonly taskBytes: (Buffer | undefined)[] = [];
  private n = 0;
  /** the index was re-read since the last update */
  private stale = false;
  /** the last row read was a provisional last line (no newline yet) */
  private provisional = false;
  private readonly sub: Disposable;
  private readonly reader: TopFieldReader;
  private buf = Buffer.allocUnsafe(CHUNK);

  constructor(readonly index: CreditIndex) {
    this.reader = new TopFieldReader(buildSchemaTables(index.options.mapping));
    this.sub = index.onDidChange((e) => {
      if (e.kind === 'reset') this.stale = true;
    });
  }

  dispose(): void {
    this.sub.dispose();
  }

  /** Rows read so far. */
  get size(): number {
    return this.n;
  }

  /** Reads the rows the index holds that this column has not read yet. */
  async update(): Promise<void> {
    const idx = this.index;
    const c = idx.columns;
    if (this.stale || this.n > idx.size) {
      this.stale = false;
      this.n = 0;
      this.tasks.length = 0;
      this.ids.clear();
      this.byHash.clear();
      this.taskBytes.length = 0;
    } else if (this.provisional && this.n > 0) {
      // the index takes a provisional last line back and reads it again once complete
      this.n--;
    }
    const total = idx.size;
    if (this.n >= total) return;
    this.reserve(total);
    const fh = idx.remote ? undefined : await openLog(idx.path);
    try {
      let i = this.n;
      while (i < total) {
        const base = c.offset[i]!;
        // a chunk of rows at once, never past what the index read (a range past the end would be refused)
        const want = Math.max(c.length[i]!, Math.min(CHUNK, idx.bytesIndexed - base));
        const bytesRead = await this.readAt(fh, base, want);
        const limit = base + bytesRead;
        let j = i;
        while (j < total && c.offset[j]! + c.length[j]! <= limit) {
          const s = c.offset[j]! - base;
          this.reader.read(this.buf, s, s + c.length[j]!);
          this.set(j);
          j++;
        }
        // the file shrank under us: the rows left are unreadable until the index reads it again
        if (j === i) for (; j < total; j++) this.unreadable(j);
        i = j;
      }
    } finally {
      await fh?.close();
    }
    this.n = total;
    this.provisional = idx.pendingTail;
  }

  /**
   * Reads up to `length` bytes at `position` into `buf` (grown when needed): from the open file,
   * or, for a log read in place, by one checked range of the index's source.
   */
  private async readAt(fh: FileHandle | undefined, position: number, length: number): Promise<number> {
    if (length > this.buf.length) this.buf = Buffer.allocUnsafe(length);
    if (fh) return (await fh.read(this.buf, 0, length, position)).bytesRead;
    const b = await this.index.readSpan(position, length);
    b.copy(this.buf, 0);
    return b.length;
  }

  private set(row: number): void {
    const r = this.reader;
    this.iteration[row] = r.iteration;
    this.task[row] =
      r.taskKind === TaskKind.Bytes
        ? this.internBytes(this.buf, r.taskStart, r.taskEnd)
        : r.taskKind === TaskKind.Text
          ? this.intern(r.taskText!)
          : -1;
  }

  private unreadable(row: number): void {
    this.iteration[row] = NaN;
    this.task[row] = -1;
  }

  private intern(task: string): number {
    let id = this.ids.get(task);
    if (id === undefined) {
      id = this.tasks.length;
      this.tasks.push(task);
      this.ids.set(task, id);
    }
    return id;
  }

  /** A task key by its UTF-8 bytes, without making a string unless the key is new. */
  private internBytes(b: Buffer, s: number, e: number): number {
    let h = e - s;
    for (let i = s; i < e; i++) h = (Math.imul(h, 31) + b[i]!) | 0;
    const list = this.byHash.get(h);
    if (list)
      outer: for (const id of list) {
        const k = this.taskBytes[id]!;
        if (k.length !== e - s) continue;
        for (let i = 0; i < k.length; i++) if (k[i] !== b[s + i]) continue outer;
        return id;
      }
    const id = this.intern(b.toString('utf8', s, e));
    this.taskBytes[id] = Buffer.from(b.subarray(s, e));
    if (list) list.push(id);
    else this.byHash.set(h, [id]);
    return id;
  }

  private reserve(n: number): void {
    if (n <= this.iteration.length) return;
    let cap = this.iteration.length;
    while (cap < n) cap *= 2;
    const it = new Float64Array(cap);
    it.set(this.iteration.subarray(0, this.n));
    const tk = new Int32Array(cap);
    tk.set(this.task.subarray(0, this.n));
    this.iteration = it;
    this.task = tk;
  }
}
