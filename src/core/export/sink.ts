/**
 * Where an export goes: a sink takes chunks one at a time and says when it is ready for
 * the next, so an export holds at most one chunk in flight whatever the consumer's pace.
 */
import type { Writable } from 'node:stream';

export interface ExportSink {
  /** Takes ownership of `chunk`; resolves when the sink can take the next. */
  write(chunk: Buffer): Promise<void>;
}

/** A sink over a Node stream (a file, stdout): each chunk waits for the stream's callback. */
export function writableSink(stream: Writable): ExportSink {
  return {
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        stream.write(chunk, (err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Collects small pieces into chunks of about `size` bytes before handing them to a sink. */
export class ChunkedWriter {
  private buf: Buffer;
  private used = 0;
  /** bytes handed to the sink so far */
  written = 0;

  constructor(
    private readonly sink: ExportSink,
    private readonly size = 256 * 1024,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Copies `piece` (the caller may reuse it once this resolves). */
  async write(piece: Buffer | string): Promise<void> {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    if (this.used + bytes.length > this.size) await this.flush();
    if (bytes.length > this.size) {
      await this.hand(Buffer.from(bytes));
      return;
    }
    bytes.copy(this.buf, this.used);
    this.used += bytes.length;
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const chunk = this.buf.subarray(0, this.used);
    this.buf = Buffer.allocUnsafe(this.size);
    this.used = 0;
    await this.hand(chunk);
  }

  private async hand(chunk: Buffer): Promise<void> {
    this.written += chunk.length;
    await this.sink.write(chunk);
  }
}
