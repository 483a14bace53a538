/**
 * The two per-row columns the comparison needs beside the index: the whole-number
 * iteration and the task key. They are read in one sequential pass over the credit log,
 * by the byte ranges the index already holds (so exactly the index's rows), and kept up
 * to date incrementally: `update()` reads only rows added since, reads a provisional
 * last row again, and starts over when the index was re-read.
 */
import { open } from 'node:fs/promises';
import type { CreditIndex } from '../log/creditIndex';
import type { Disposable } from '../log/events';
import { buildSchemaTables } from '../record/schema';
import { TopFieldReader } from './topFields';

const CHUNK = 4 * 1024 * 1024;

export class TaskColumn {
  /** whole-number iteration per row, NaN where it is not one */
  iteration = new Float64Array(1024);
  /** task id per row (index into `tasks`), -1 where the row has no task key */
  task = new Int32Array(1024);
  /** the distinct task keys, by id */
  readonly tasks: string[] = [];
  private readonly ids = new Map<string, number>();
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
    } else if (this.provisional && this.n > 0) {
      // the index takes a provisional last line back and reads it again once complete
      this.n--;
    }
    const total = idx.size;
    if (this.n >= total) return;
    this.reserve(total);
    const fh = await open(idx.path, 'r');
    try {
      let i = this.n;
      while (i < total) {
        const base = c.offset[i]!;
        const need = c.length[i]!;
        if (need > this.buf.length) this.buf = Buffer.allocUnsafe(need);
        const { bytesRead } = await fh.read(this.buf, 0, this.buf.length, base);
        const limit = base + bytesRead;
        let j = i;
        while (j < total && c.offset[j]! + c.length[j]! <= limit) {
          const s = c.offset[j]! - base;
          this.set(j, this.reader.read(this.buf, s, s + c.length[j]!));
          j++;
        }
        // the file shrank under us: the rows left are unreadable until the index reads it again
        if (j === i) for (; j < total; j++) this.set(j, { iteration: NaN, task: null });
        i = j;
      }
    } finally {
      await fh.close();
    }
    this.n = total;
    this.provisional = idx.pendingTail;
  }

  private set(row: number, f: { iteration: number; task: string | null }): void {
    this.iteration[row] = f.iteration;
    if (f.task === null) {
      this.task[row] = -1;
      return;
    }
    let id = this.ids.get(f.task);
    if (id === undefined) {
      id = this.tasks.length;
      this.tasks.push(f.task);
      this.ids.set(f.task, id);
    }
    this.task[row] = id;
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
