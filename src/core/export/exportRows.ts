/**
 * Exports selected trajectories of a credit log, streaming: the records' bytes are read
 * in file order through a bounded window and written to a sink in chunks, so memory
 * stays bounded by the window and the chunk size, never by the log.
 *
 * - `jsonl`: each selected record's original line, byte for byte (without the line
 *   ending it had, and without a UTF-8 BOM at the start of the file), then `\n`.
 * - `csv`: the table's summary columns (`SUMMARY_COLUMNS`), RFC 4180, CRLF line ends.
 * - `parquet`: the same columns, typed, a row group every `PARQUET_ROW_GROUP` rows.
 */
import type { CreditIndex } from '../log/creditIndex';
import { parseTolerant } from '../log/tolerantJson';
import { buildSchemaTables } from '../record/schema';
import type { SchemaTables } from '../record/schema';
import { normaliseRecord } from '../record/trajectory';
import { csvHeader, csvRow } from './csv';
import type { RecordText } from './summary';
import { parquetRows } from './parquet';
import { inFileOrder, readRanges } from './recordReader';
import type { RangeOrigin, RangeSource } from './recordReader';
import { ChunkedWriter } from './sink';
import type { ExportSink } from './sink';

export type ExportFormat = 'jsonl' | 'csv' | 'parquet';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'csv', 'parquet'];

export interface ExportProgress {
  rowsDone: number;
  rowsTotal: number;
  /** log bytes read so far */
  bytesRead: number;
  /** bytes handed to the sink so far */
  bytesWritten: number;
}

export interface ExportOptions {
  signal?: AbortSignal;
  /** called every few hundred rows and once at the end */
  onProgress?: (p: ExportProgress) => void;
  /** the read window and the output chunk, in bytes (tests make them small) */
  window?: number;
  chunk?: number;
  /** rows in a Parquet row group (tests make it small) */
  rowGroup?: number;
  /** the log's bytes when it is not a local file (a Hub log read in place: `RunLocation.remote.credit`) */
  origin?: RangeOrigin;
}

export interface ExportResult {
  rows: number;
  bytes: number;
}

const NEWLINE = Buffer.from('\n');
const PROGRESS_EVERY = 512;

function rangeSource(index: CreditIndex): RangeSource {
  const c = index.columns;
  return { offset: (i) => c.offset[i]!, length: (i) => c.length[i]! };
}

function recordText(index: CreditIndex, tables: SchemaTables, row: number, bytes: Buffer): RecordText {
  const obj = parseTolerant(bytes.toString('utf8'));
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    throw new Error(`${index.path}:${index.columns.line[row]}: the record changed on disk; index it again`);
  const v = normaliseRecord(obj as Record<string, unknown>, tables).view;
  return { taskId: v.taskId, instruction: v.instruction };
}

const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0d;

/** The bytes still start with `{` and end with `}` (whitespace aside): a cheap check that the file has not moved under the index. */
function looksLikeObject(bytes: Buffer): boolean {
  let a = 0;
  let z = bytes.length - 1;
  while (a < z && isSpace(bytes[a])) a++;
  while (z > a && isSpace(bytes[z])) z--;
  return bytes[a] === 0x7b && bytes[z] === 0x7d;
}

/**
 * Writes `rows` of `index` (any order; written in file order) to `sink`. Rejects with an
 * AbortError on cancel, and with an error naming the log when the log is replaced meanwhile
 * (the rows would no longer name its records).
 */
export async function exportRows(
  index: CreditIndex,
  rows: ArrayLike<number>,
  format: ExportFormat,
  sink: ExportSink,
  opts: ExportOptions = {},
): Promise<ExportResult> {
  let replaced = false;
  const sub = index.onDidChange((c) => {
    if (c.kind === 'reset') replaced = true;
  });
  try {
    return await writeAll(index, rows, format, sink, opts, () => replaced);
  } finally {
    sub.dispose();
  }
}

/** How one format writes: a header, each record, an end. */
interface Encoder {
  row(id: number, bytes: Buffer): Promise<void>;
  end(): Promise<void>;
  written(): number;
}

function jsonlEncoder(index: CreditIndex, out: ChunkedWriter): Encoder {
  return {
    row: async (id, bytes) => {
      if (!looksLikeObject(bytes)) throw new Error(`${index.path}:${index.columns.line[id]}: the record changed on disk; index it again`);
      await out.write(bytes);
      await out.write(NEWLINE);
    },
    end: () => out.flush(),
    written: () => out.written,
  };
}

async function encoder(index: CreditIndex, format: ExportFormat, sink: ExportSink, opts: ExportOptions): Promise<Encoder> {
  if (format === 'jsonl') return jsonlEncoder(index, new ChunkedWriter(sink, opts.chunk));
  const tables = buildSchemaTables(index.options.mapping);
  const text = (id: number, bytes: Buffer): RecordText => recordText(index, tables, id, bytes);
  if (format === 'parquet') {
    const p = parquetRows(sink, opts.rowGroup);
    return {
      row: async (id, bytes) => await p.add({ row: index.row(id), text: text(id, bytes) }),
      end: () => p.finish(),
      written: () => p.written,
    };
  }
  const out = new ChunkedWriter(sink, opts.chunk);
  await out.write(csvHeader());
  return { row: (id, bytes) => out.write(csvRow(index.row(id), text(id, bytes))), end: () => out.flush(), written: () => out.written };
}

async function writeAll(
  index: CreditIndex,
  rows: ArrayLike<number>,
  format: ExportFormat,
  sink: ExportSink,
  opts: ExportOptions,
  replaced: () => boolean,
): Promise<ExportResult> {
  const src = rangeSource(index);
  const ids = inFileOrder(rows, src);
  const enc = await encoder(index, format, sink, opts);
  let bytesRead = 0;
  let done = 0;
  const progress = (): void => opts.onProgress?.({ rowsDone: done, rowsTotal: ids.length, bytesRead, bytesWritten: enc.written() });
  const reader = readRanges(index.path, ids, src, {
    ...(opts.window !== undefined ? { window: opts.window } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.origin ? { origin: opts.origin } : {}),
    onRead: (n) => (bytesRead = n),
  });
  for await (const { id, bytes } of reader) {
    opts.signal?.throwIfAborted();
    if (replaced()) throw new Error(`${index.path}: the log was replaced during the export; export again`);
    await enc.row(id, bytes);
    if (++done % PROGRESS_EVERY === 0) progress();
  }
  await enc.end();
  progress();
  return { rows: done, bytes: enc.written() };
}
