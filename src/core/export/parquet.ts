/**
 * Parquet of the trajectory table: the summary columns with their types (INT64, DOUBLE,
 * UTF-8 strings, BOOLEAN; null where absent), written by the exports' one Parquet writer
 * (`parquetTable.ts`).
 */
import type { TrajectoryRow } from '../log/creditIndex';
import { ParquetTable } from './parquetTable';
import type { ParquetColumn } from './parquetTable';
import { SUMMARY_COLUMNS } from './summary';
import type { RecordText } from './summary';
import type { ExportSink } from './sink';

/** Rows in a row group (the last one may have fewer). */
export const PARQUET_ROW_GROUP = 10_000;

/** A row of the export: the index's row and what its record says. */
export interface ExportRow {
  row: TrajectoryRow;
  text: RecordText;
}

const COLUMNS: readonly ParquetColumn<ExportRow>[] = SUMMARY_COLUMNS.map((c) => ({
  name: c.name,
  type: c.type,
  get: (x: ExportRow) => c.get(x.row, x.text),
}));

/** Writes trajectory rows as one Parquet file, a row group every `groupRows` rows. */
export function parquetRows(sink: ExportSink, groupRows = PARQUET_ROW_GROUP): ParquetTable<ExportRow> {
  return new ParquetTable(COLUMNS, sink, groupRows);
}
