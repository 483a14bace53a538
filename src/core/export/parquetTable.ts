/**
 * The one Parquet writer of the exports (the trajectory table, the dataset's files): typed
 * columns written a row group at a time: each row's cells are encoded into their columns as
 * they come (`parquetColumn.ts`) until a group is full, the group's pages are handed to the
 * sink, so memory is one row group's bytes whatever the rows. Every column is optional, null
 * where a value is absent; a column is a scalar (INT64, INT32, DOUBLE, UTF-8, BOOLEAN) or a list
 * of them (the 3-level LIST). The footer is hyparquet-writer's, by a cheaper port of its writer
 * (`parquetFooter.ts`).
 */
import { ByteWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet-writer';
import type { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { writeFooter } from './parquetFooter';
import { ColumnBuilder } from './parquetColumn';
import type { ColumnChunk, Scalar, ScalarType } from './parquetColumn';
export type { ColumnBuilder } from './parquetColumn';
import type { ExportSink } from './sink';

export type { Scalar, ScalarType } from './parquetColumn';
export type ColumnType = ScalarType | { list: ScalarType };
export type CellValue = Scalar | readonly Scalar[];

export interface ParquetColumn<R> {
  name: string;
  type: ColumnType;
  get: (r: R) => CellValue;
}

/**
 * Writes a row's cells into the columns' builders, in the columns' order, by their typed
 * methods: the same bytes as the columns' `get`s, without a call a cell (a table's hot path).
 */
export type RowWriter<R> = (r: R, b: readonly ColumnBuilder[]) => void;

const PHYSICAL: Record<ScalarType, Omit<SchemaElement, 'name'>> = {
  int: { type: 'INT64' },
  int32: { type: 'INT32' },
  float: { type: 'DOUBLE' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  bool: { type: 'BOOLEAN' },
};

function elements<R>(c: ParquetColumn<R>): SchemaElement[] {
  if (typeof c.type === 'string') return [{ name: c.name, ...PHYSICAL[c.type], repetition_type: 'OPTIONAL' }];
  return [
    { name: c.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', ...PHYSICAL[c.type.list], repetition_type: 'OPTIONAL' },
  ];
}

type FileMetaData = Parameters<typeof writeMetadata>[1];

/** hyparquet-writer's writer, whose bytes go to a sink at each row group's end instead of growing one buffer. */
class SinkWriter extends ByteWriter {
  /** bytes handed to the sink so far */
  written = 0;

  constructor(private sink: ExportSink) {
    super(1 << 16);
  }

  /** Writes to `sink` from its start, keeping the buffer. */
  restart(sink: ExportSink): void {
    this.sink = sink;
    this.index = this.offset = this.written = 0;
  }

  flush(): Promise<void> {
    const chunk = Buffer.from(new Uint8Array(this.buffer, 0, this.index));
    this.index = 0;
    this.written += chunk.length;
    return this.sink.write(chunk);
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

/** Rows as one Parquet file, a row group every `groupRows` rows (the last one may have fewer). */
export class ParquetTable<R> {
  private writer: SinkWriter;
  private readonly schema: SchemaElement[];
  private readonly builders: ColumnBuilder[];
  private readonly gets: ((r: R) => CellValue)[];
  private readonly lists: boolean[];
  private groups: FileMetaData['row_groups'] = [];
  private rows = 0;
  /** rows written in all */
  count = 0;
  /** what writes the footer (hyparquet-writer's `writeMetadata`, in a test: the bytes to match) */
  footer: (w: ByteWriter, meta: FileMetaData) => void = writeFooter;

  constructor(
    cols: readonly ParquetColumn<R>[],
    sink: ExportSink,
    private readonly groupRows = 10_000,
    private readonly rowWriter?: RowWriter<R>,
  ) {
    this.writer = new SinkWriter(sink);
    this.schema = [{ name: 'root', num_children: cols.length }, ...cols.flatMap(elements)];
    this.builders = cols.map((c) =>
      typeof c.type === 'string'
        ? new ColumnBuilder(c.type, [c.name], false)
        : new ColumnBuilder(c.type.list, [c.name, 'list', 'element'], true),
    );
    this.gets = cols.map((c) => c.get);
    this.lists = cols.map((c) => typeof c.type !== 'string');
    // the magic number that opens the file
    this.writer.appendUint32(0x31524150);
  }

  /** Starts another file of the same columns into `sink` (after `finish`), reusing this one's buffers. */
  restart(sink: ExportSink): void {
    this.writer.restart(sink);
    for (const b of this.builders) b.reset();
    this.groups = [];
    this.rows = 0;
    this.count = 0;
    this.writer.appendUint32(0x31524150);
  }

  /** bytes handed to the sink so far */
  get written(): number {
    return this.writer.written;
  }

  /** Adds a row; a promise only when it filled a row group (its bytes are on their way to the sink). */
  add(r: R): Promise<void> | undefined {
    const { gets, builders, lists } = this;
    if (this.rowWriter) this.rowWriter(r, builders);
    else
      for (let i = 0; i < gets.length; i++) {
        if (lists[i]) builders[i]!.list(gets[i]!(r));
        else builders[i]!.scalar(gets[i]!(r) as Scalar);
      }
    this.count++;
    return ++this.rows >= this.groupRows ? this.writeGroup() : undefined;
  }

  private writeGroup(): Promise<void> {
    const start = this.writer.offset;
    const columns: ColumnChunk[] = this.builders.map((b) => b.write(this.writer));
    let bytes = 0n;
    for (const c of columns) bytes += c.meta_data?.total_uncompressed_size ?? 0n;
    this.groups.push({
      columns,
      total_byte_size: bytes,
      num_rows: BigInt(this.rows),
      total_compressed_size: BigInt(this.writer.offset - start),
    });
    this.rows = 0;
    return this.writer.flush();
  }

  /** The last row group and the footer. */
  async finish(): Promise<void> {
    if (this.rows > 0) await this.writeGroup();
    let rows = 0n;
    for (const g of this.groups) rows += g.num_rows;
    const meta = {
      version: 2,
      created_by: 'rl-run-browser',
      schema: this.schema,
      num_rows: rows,
      row_groups: this.groups,
      metadata_length: 0,
    };
    this.footer(this.writer, meta);
    this.writer.appendUint32(0x31524150);
    await this.writer.finish();
  }
}
