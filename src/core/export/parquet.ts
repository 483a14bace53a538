/**
 * Parquet of the trajectory table: the summary columns with their types (INT64, DOUBLE,
 * UTF-8 strings, BOOLEAN; every column optional, null where absent), written with
 * `hyparquet-writer` one row group at a time: rows gather in columns until a group is
 * full, the group is encoded and its bytes handed to the sink, so memory is one row
 * group whatever the selection.
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ColumnSource, SchemaElement } from 'hyparquet-writer';
import type { TrajectoryRow } from '../log/creditIndex';
import { SUMMARY_COLUMNS } from './summary';
import type { RecordText, SummaryType, SummaryValue } from './summary';
import type { ExportSink } from './sink';

/** Rows in a row group (the last one may have fewer). */
export const PARQUET_ROW_GROUP = 10_000;

type Cell = bigint | number | string | boolean | null;

const ELEMENT: Record<SummaryType, Omit<SchemaElement, 'name'>> = {
  int: { type: 'INT64' },
  float: { type: 'DOUBLE' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  bool: { type: 'BOOLEAN' },
};

function schema(): SchemaElement[] {
  return [
    { name: 'root', num_children: SUMMARY_COLUMNS.length },
    ...SUMMARY_COLUMNS.map((c) => ({ name: c.name, ...ELEMENT[c.type], repetition_type: 'OPTIONAL' as const })),
  ];
}

/** A value in its column's Parquet type: an int as a bigint (null unless a safe integer). */
function cell(type: SummaryType, v: SummaryValue): Cell {
  if (type === 'int') return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : null;
  return v;
}

/** hyparquet-writer's writer, whose bytes go to a sink at each row group's end instead of growing one buffer. */
export class SinkWriter extends ByteWriter {
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

/** Writes trajectory rows as one Parquet file, a row group every `groupRows` rows. */
export class ParquetRows {
  private readonly writer: SinkWriter;
  private readonly parquet: ParquetWriter;
  private columns: Cell[][] = SUMMARY_COLUMNS.map(() => []);
  private rows = 0;

  constructor(
    sink: ExportSink,
    private readonly groupRows = PARQUET_ROW_GROUP,
  ) {
    this.writer = new SinkWriter(sink);
    this.parquet = new ParquetWriter({ writer: this.writer, schema: schema(), createdBy: 'rl-run-browser' });
  }

  get written(): number {
    return this.writer.written;
  }

  async add(r: TrajectoryRow, t: RecordText): Promise<void> {
    SUMMARY_COLUMNS.forEach((c, i) => this.columns[i]!.push(cell(c.type, c.get(r, t))));
    if (++this.rows >= this.groupRows) await this.writeGroup();
  }

  private async writeGroup(): Promise<void> {
    if (this.rows === 0) return;
    const columnData: ColumnSource[] = SUMMARY_COLUMNS.map((c, i) => ({ name: c.name, data: this.columns[i]! }));
    this.columns = SUMMARY_COLUMNS.map(() => []);
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
