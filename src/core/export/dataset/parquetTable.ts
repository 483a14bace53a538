/**
 * A Parquet file of typed columns written a row group at a time to a sink (hyparquet-writer,
 * as the trajectory export writes its file): memory is one row group whatever the rows.
 * Columns are scalars (INT64, DOUBLE, UTF-8, BOOLEAN) or lists of them (the 3-level LIST).
 */
import { ParquetWriter } from 'hyparquet-writer';
import type { ColumnSource, SchemaElement } from 'hyparquet-writer';
import { SinkWriter } from '../parquet';
import type { ExportSink } from '../sink';

/** `int`: INT64 (held exactly to 2^53); `int32`: counts that fit, no BigInt per cell */
export type ScalarType = 'int' | 'int32' | 'float' | 'string' | 'bool';
export type ColumnType = ScalarType | { list: ScalarType };
export type Scalar = number | string | boolean | null;
export type CellValue = Scalar | readonly Scalar[];

export interface DatasetColumn<R> {
  name: string;
  type: ColumnType;
  /** what a reader is told the column means (docs/dataset.md) */
  about: string;
  get: (r: R) => CellValue;
}

const PHYSICAL: Record<ScalarType, Omit<SchemaElement, 'name'>> = {
  int: { type: 'INT64' },
  int32: { type: 'INT32' },
  float: { type: 'DOUBLE' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  bool: { type: 'BOOLEAN' },
};

function elements<R>(c: DatasetColumn<R>): SchemaElement[] {
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

export class ParquetTable<R> {
  private readonly writer: SinkWriter;
  private readonly parquet: ParquetWriter;
  private columns: Stored[][];
  private rows = 0;
  /** rows written in all */
  count = 0;

  constructor(
    private readonly cols: readonly DatasetColumn<R>[],
    sink: ExportSink,
    private readonly groupRows = 10_000,
  ) {
    this.writer = new SinkWriter(sink);
    const schema: SchemaElement[] = [{ name: 'root', num_children: cols.length }, ...cols.flatMap(elements)];
    this.parquet = new ParquetWriter({ writer: this.writer, schema, createdBy: 'rl-run-browser' });
    this.columns = cols.map(() => []);
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

  async finish(): Promise<void> {
    await this.writeGroup();
    await this.parquet.finish();
  }
}
