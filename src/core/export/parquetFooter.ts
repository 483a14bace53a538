/**
 * A Parquet file's footer (FileMetaData in Thrift's compact protocol, then its length): the
 * bytes hyparquet-writer's `writeMetadata` writes, by a port of its serializer that reads each
 * field's id once (not by a regular expression on every field of every file) and encodes a
 * text without a new `TextEncoder`; the fields the export writes (no bounding boxes).
 */
import { ByteWriter } from 'hyparquet-writer';
import type { Writer } from 'hyparquet-writer';
import type { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { schemaPathResolver } from 'hyparquet-writer/src/schema.js';
import { unconvertStatistics } from 'hyparquet-writer/src/unconvert.js';
import { CompressionCodecs, ConvertedTypes, Encodings, FieldRepetitionTypes, PageTypes, ParquetTypes } from 'hyparquet/src/constants.js';

type FileMetaData = Parameters<typeof writeMetadata>[1];
type SchemaElement = FileMetaData['schema'][number];

// compact protocol types
const STOP = 0;
const TRUE = 1;
const FALSE = 2;
const BYTE = 3;
const I32 = 5;
const I64 = 6;
const DOUBLE = 7;
const BINARY = 8;
const LIST = 9;
const STRUCT = 12;

type Value = unknown;

/** A value already in the compact protocol (`type`, its bytes), written as it is. */
class Encoded {
  constructor(
    readonly type: number,
    readonly bytes: Uint8Array,
  ) {}
}

const FIELD_IDS = new Map<string, number>();

/** The id of field `key` (`field_N`). */
function fieldId(key: string): number {
  let id = FIELD_IDS.get(key);
  if (id === undefined) {
    id = key.startsWith('field_') ? parseInt(key.slice(6), 10) : NaN;
    if (Number.isNaN(id)) throw new Error(`thrift invalid field name: ${key}. Expected "field_###"`);
    FIELD_IDS.set(key, id);
  }
  return id;
}

function typeOf(v: Value): number {
  if (v instanceof Encoded) return v.type;
  if (v === true) return TRUE;
  if (v === false) return FALSE;
  if (Number.isInteger(v)) return I32;
  if (typeof v === 'number') return DOUBLE;
  if (typeof v === 'bigint') return I64;
  if (typeof v === 'string' || v instanceof Uint8Array) return BINARY;
  if (Array.isArray(v)) return LIST;
  if (v !== null && typeof v === 'object') return STRUCT;
  throw new Error(`Cannot determine thrift compact type for: ${String(v)}`);
}

/** A list's element type: its first element's, an int widened to a double beside one. */
function listType(l: readonly Value[]): number {
  let elem = 0;
  for (const v of l) {
    let t = typeOf(v);
    if (t === TRUE) t = FALSE;
    if (!elem) elem = t;
    if (elem === DOUBLE && t === I32) t = DOUBLE;
    if (elem === I32 && t === DOUBLE) elem = DOUBLE;
    if (t !== elem) throw new Error(`thrift invalid type for list element: ${String(v)} (expected type ${elem})`);
  }
  return elem;
}

function element(w: Writer, type: number, v: Value): void {
  if (type === TRUE || type === FALSE) return;
  if (v instanceof Encoded) w.appendBytes(v.bytes);
  else if (type === BYTE && typeof v === 'number') w.appendUint8(v);
  else if ((type === I32 && typeof v === 'number') || (type === I64 && typeof v === 'bigint')) w.appendZigZag(v);
  else if (type === DOUBLE && typeof v === 'number') w.appendFloat64(v);
  else if (type === BINARY && (typeof v === 'string' || v instanceof Uint8Array)) {
    const bytes = typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
    w.appendVarInt(bytes.byteLength);
    w.appendBytes(bytes);
  } else if (type === LIST && Array.isArray(v)) {
    const elem = listType(v);
    if (v.length > 14) {
      w.appendUint8((15 << 4) | elem);
      w.appendVarInt(v.length);
    } else w.appendUint8((v.length << 4) | elem);
    if (elem === FALSE) for (const x of v) w.appendUint8(x ? 1 : 0);
    else for (const x of v) element(w, elem, x);
  } else if (type === STRUCT && v !== null && typeof v === 'object') {
    let last = 0;
    for (const k in v) {
      const x = (v as Record<string, Value>)[k];
      if (x === undefined) continue;
      const id = fieldId(k);
      const t = typeOf(x);
      const delta = id - last;
      if (delta <= 0) throw new Error(`thrift non-monotonic field id: fid=${id}, lastFid=${last}`);
      if (delta > 15) {
        w.appendUint8(t);
        w.appendZigZag(id);
      } else w.appendUint8((delta << 4) | t);
      element(w, t, x);
      last = id;
    }
    w.appendUint8(STOP);
  } else throw new Error(`thrift invalid type ${type} for value ${String(v)}`);
}

/** A logical type's struct (the ones a schema of the export holds: STRING, LIST). */
function logicalType(t: SchemaElement['logical_type']): Value {
  if (!t) return undefined;
  if (t.type === 'STRING') return { field_1: {} };
  if (t.type === 'MAP') return { field_2: {} };
  if (t.type === 'LIST') return { field_3: {} };
  if (t.type === 'ENUM') return { field_4: {} };
  throw new Error(`the footer writer does not write logical type ${t.type}`);
}

/** What a schema's files share: its elements encoded, and each leaf's element by its path (a table's files share one schema). */
interface SchemaParts {
  encoded: Encoded;
  element: (path: readonly string[]) => SchemaElement;
}

const SCHEMAS = new WeakMap<readonly SchemaElement[], SchemaParts>();

function schemaParts(schema: SchemaElement[]): SchemaParts {
  let parts = SCHEMAS.get(schema);
  if (parts) return parts;
  const resolve = schemaPathResolver(schema);
  const elements = new Map<string, SchemaElement>();
  const w = new ByteWriter();
  element(
    w,
    LIST,
    schema.map((e) => ({
      field_1: e.type && ParquetTypes.indexOf(e.type),
      field_2: e.type_length,
      field_3: e.repetition_type && FieldRepetitionTypes.indexOf(e.repetition_type),
      field_4: e.name,
      field_5: e.num_children,
      field_6: e.converted_type && ConvertedTypes.indexOf(e.converted_type),
      field_7: e.scale,
      field_8: e.precision,
      field_9: e.field_id,
      field_10: logicalType(e.logical_type),
    })),
  );
  parts = {
    encoded: new Encoded(LIST, w.getBytes()),
    element: (path) => {
      const key = path.join('\0');
      let e = elements.get(key);
      if (!e) {
        const tree = resolve([...path]);
        elements.set(key, (e = tree[tree.length - 1]!.element));
      }
      return e;
    },
  };
  SCHEMAS.set(schema, parts);
  return parts;
}

/** Writes `metadata` and its length at the writer's end (`writeMetadata`'s bytes). */
export function writeFooter(w: Writer, metadata: FileMetaData): void {
  const schema = schemaParts(metadata.schema);
  const compact = {
    field_1: metadata.version,
    field_2: schema.encoded,
    field_3: metadata.num_rows,
    field_4: metadata.row_groups.map((rg) => ({
      field_1: rg.columns.map((c) => {
        const m = c.meta_data;
        if (m && (m.key_value_metadata || m.size_statistics || m.geospatial_statistics || m.index_page_offset !== undefined))
          throw new Error("the footer writer writes the export's column chunks only");
        return {
          field_1: c.file_path,
          field_2: c.file_offset,
          field_3: m && {
            field_1: ParquetTypes.indexOf(m.type),
            field_2: m.encodings.map((e) => Encodings.indexOf(e)),
            field_3: m.path_in_schema,
            field_4: CompressionCodecs.indexOf(m.codec),
            field_5: m.num_values,
            field_6: m.total_uncompressed_size,
            field_7: m.total_compressed_size,
            field_9: m.data_page_offset,
            field_11: m.dictionary_page_offset,
            field_12: m.statistics && unconvertStatistics(m.statistics, schema.element(m.path_in_schema)),
            field_13: m.encoding_stats?.map((es) => ({
              field_1: PageTypes.indexOf(es.page_type),
              field_2: Encodings.indexOf(es.encoding),
              field_3: es.count,
            })),
            field_14: m.bloom_filter_offset,
            field_15: m.bloom_filter_length,
          },
          field_4: c.offset_index_offset,
          field_5: c.offset_index_length,
          field_6: c.column_index_offset,
          field_7: c.column_index_length,
          field_9: c.encrypted_column_metadata,
        };
      }),
      field_2: rg.total_byte_size,
      field_3: rg.num_rows,
      field_4: rg.sorting_columns?.map((sc) => ({ field_1: sc.column_idx, field_2: sc.descending, field_3: sc.nulls_first })),
      field_5: rg.file_offset,
      field_6: rg.total_compressed_size,
    })),
    field_5: metadata.key_value_metadata?.map((kv) => ({ field_1: kv.key, field_2: kv.value })),
    field_6: metadata.created_by,
    field_7: metadata.schema.filter((e) => e.type).map(() => ({ field_1: {} })),
  };
  const start = w.offset;
  element(w, STRUCT, compact);
  w.appendUint32(w.offset - start);
}
