/**
 * The one Parquet writer of the exports (the trajectory table, the dataset's files): typed
 * columns written with `hyparquet-writer` a row group at a time: rows gather in columns until
 * a group is full, the group is encoded and its bytes handed to the sink, so memory is one
 * row group whatever the rows. Every column is optional, null where a value is absent; a
 * column is a scalar (INT64, INT32, DOUBLE, UTF-8, BOOLEAN) or a list of them (the 3-level LIST).
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ColumnSource, SchemaElement } from 'hyparquet-writer';
import type { ExportSink } from './sink';

/** `int`: INT64 (held exactly to 2^53); `int32`: counts that fit, no BigInt per cell */
export type ScalarType = 'int' | 'int32' | 'float' | 'string' | 'bool';
export type ColumnType = ScalarType | { list: ScalarType };
export type Scalar = number | string | boolean | null;
export type CellValue = Scalar | readonly Scalar[];

export interface ParquetColumn<R> {
  name: string;
  type: ColumnType;
  get: (r: R) => CellValue;
}

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

function scalar(type: ScalarType, v: Scalar): Scalar | bigint {
  if (type === 'int') return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : null;
  if (type === 'int32') return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? v : null;
  if (type === 'float') return typeof v === 'number' && Number.isFinite(v) ? v : null;
  return v;
}

type Stored = Scalar | bigint | (Scalar | bigint)[];

function cell(type: ColumnType, v: CellValue): Stored {
  if (typeof type === 'string') return Array.isArray(v) ? null : scalar(type, v as Scalar);
  if (!Array.isArray(v)) return null;
  return (v as readonly Scalar[]).map((x) => scalar(type.list, x));
}

/** hyparquet-writer's writer, whose bytes go to a sink at each row group's end instead of growing one buffer. */
class SinkWriter extends ByteWriter {
  /** bytes handed to the sink so far */
  written = 0;

  constructor(private readonly sink: ExportSink) {
    super(1 << 16);
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
  private readonly writer: SinkWriter;
  private readonly parquet: ParquetWriter;
  private columns: Stored[][];
  private rows = 0;
  /** rows written in all */
  count = 0;

  constructor(
    private readonly cols: readonly ParquetColumn<R>[],
    sink: ExportSink,
    private readonly groupRows = 10_000,
  ) {
    this.writer = new SinkWriter(sink);
    const schema: SchemaElement[] = [{ name: 'root', num_children: cols.length }, ...cols.flatMap(elements)];
    this.parquet = new ParquetWriter({ writer: this.writer, schema, createdBy: 'rl-run-browser' });
    this.columns = cols.map(() => []);
  }

  /** bytes handed to the sink so far */
  get written(): number {
    return this.writer.written;
  }

  async add(r: R): Promise<void> {
    this.cols.forEach((c, i) => this.columns[i]!.push(cell(c.type, c.get(r))));
    this.count++;
    if (++this.rows >= this.groupRows) await this.writeGroup();
  }

  private async writeGroup(): Promise<void> {
    if (this.rows === 0) return;
    const columnData = this.cols.map((c, i) => ({ name: c.name, data: this.columns[i]! })) as ColumnSource[];
    this.columns = this.cols.map(() => []);
    const n = this.rows;
    this.rows = 0;
    await this.parquet.write({ columnData, rowGroupSize: n });
  }

  /** The last row group and the footer. */
  async finish(): Promise<void> {
    await this.writeGroup();
    await this.parquet.finish();
  }
}
