/**
 * The on-disk frame of a saved index: a fixed head (magic, format version, lengths,
 * a CRC-32 of everything after the head), a JSON header, then typed arrays written
 * as their bytes. Decoding checks every length and the checksum; a frame that fails
 * any check is refused whole (undefined), never partly trusted.
 */
import { crc32 } from 'node:zlib';

/**
 * Bumped whenever the frame or what an index holds changes; an index of another version is rebuilt (2: the behaviour columns of section
 * 7).
 */
export const INDEX_FORMAT_VERSION = 2;

const MAGIC = Buffer.from('RLRBIDX\0', 'latin1');
const HEAD = 32;

export type SectionType = 'f64' | 'u32' | 'u16';
export type TypedColumn = Float64Array | Uint32Array | Uint16Array;

const BYTES: Record<SectionType, number> = { f64: 8, u32: 4, u16: 2 };

export interface Section {
  name: string;
  /** elements written (a column may be longer: only the first `count` are kept) */
  count: number;
  /** one array, or several of one type written one after another (blocks of a column, not copied) */
  data: TypedColumn | readonly [TypedColumn, ...TypedColumn[]];
}

export interface DecodedFrame {
  header: Record<string, unknown>;
  /** by name: the bytes of each section (a view into the frame) */
  sections: Map<string, { type: SectionType; bytes: Buffer }>;
}

const pad8 = (n: number): number => (n + 7) & ~7;

function typeOf(a: TypedColumn): SectionType {
  return a instanceof Float64Array ? 'f64' : a instanceof Uint32Array ? 'u32' : 'u16';
}

const firstOf = (d: Section['data']): TypedColumn => (Array.isArray(d) ? (d as readonly TypedColumn[])[0]! : (d as TypedColumn));

/** A section's bytes as views of its arrays, `count` elements in all. */
function bodyOf(s: Section): Buffer[] {
  const parts = Array.isArray(s.data) ? (s.data as readonly TypedColumn[]) : [s.data as TypedColumn];
  const size = BYTES[typeOf(firstOf(s.data))];
  const out: Buffer[] = [];
  let left = s.count * size;
  for (const p of parts) {
    if (left <= 0) break;
    const b = Buffer.from(p.buffer, p.byteOffset, Math.min(left, p.length * size));
    out.push(b);
    left -= b.length;
  }
  if (left > 0) throw new Error(`internal: section ${s.name} holds fewer than ${s.count} elements`);
  return out;
}

/** The frame's bytes, as a list of buffers to write one after another. */
export function encodeFrame(header: Record<string, unknown>, sections: Section[], version = INDEX_FORMAT_VERSION): Buffer[] {
  const table = sections.map((s) => ({ name: s.name, type: typeOf(firstOf(s.data)), count: s.count }));
  const json = Buffer.from(JSON.stringify({ ...header, sections: table }), 'utf8');
  const jsonPadded = Buffer.alloc(pad8(json.length));
  json.copy(jsonPadded);
  const bodies = sections.map(bodyOf);
  const lengthOf = (b: Buffer[]): number => b.reduce((n, x) => n + x.length, 0);
  const payload = bodies.reduce((n, b) => n + pad8(lengthOf(b)), 0);
  let crc = crc32(jsonPadded);
  const parts: Buffer[] = [];
  for (const body of bodies) {
    for (const b of body) {
      crc = crc32(b, crc);
      parts.push(b);
    }
    const length = lengthOf(body);
    const pad = Buffer.alloc(pad8(length) - length);
    if (pad.length > 0) {
      crc = crc32(pad, crc);
      parts.push(pad);
    }
  }
  const head = Buffer.alloc(HEAD);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(version, 8);
  head.writeUInt32LE(json.length, 12);
  head.writeDoubleLE(payload, 16);
  head.writeUInt32LE(crc >>> 0, 24);
  return [head, jsonPadded, ...parts];
}

/** Reads a frame; undefined when it is not one of this version, whole and unchanged. */
export function decodeFrame(buf: Buffer): DecodedFrame | undefined {
  if (buf.length < HEAD || !buf.subarray(0, 8).equals(MAGIC)) return undefined;
  if (buf.readUInt32LE(8) !== INDEX_FORMAT_VERSION) return undefined;
  const jsonLen = buf.readUInt32LE(12);
  const payload = buf.readDoubleLE(16);
  const bodyStart = HEAD + pad8(jsonLen);
  if (!Number.isSafeInteger(payload) || bodyStart + payload !== buf.length) return undefined;
  if (crc32(buf.subarray(HEAD)) >>> 0 !== buf.readUInt32LE(24)) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(buf.toString('utf8', HEAD, HEAD + jsonLen));
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) return undefined;
  const table = (header as { sections?: unknown }).sections;
  if (!Array.isArray(table)) return undefined;
  const sections = new Map<string, { type: SectionType; bytes: Buffer }>();
  let at = bodyStart;
  for (const s of table as unknown[]) {
    if (s === null || typeof s !== 'object') return undefined;
    const { name, type, count } = s as Record<string, unknown>;
    if (typeof name !== 'string' || (type !== 'f64' && type !== 'u32' && type !== 'u16')) return undefined;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return undefined;
    const len = count * BYTES[type];
    if (at + len > buf.length || sections.has(name)) return undefined;
    sections.set(name, { type, bytes: buf.subarray(at, at + len) });
    at += pad8(len);
  }
  if (at !== buf.length) return undefined;
  return { header: header as Record<string, unknown>, sections };
}

/** A section's values copied into a new array of `capacity` elements (at least its count); undefined when the type differs. */
export function columnOf<T extends TypedColumn>(
  frame: DecodedFrame,
  name: string,
  make: new (n: number) => T,
  capacity: number,
): T | undefined {
  const s = frame.sections.get(name);
  if (!s) return undefined;
  const out = new make(Math.max(capacity, s.bytes.length / new make(0).BYTES_PER_ELEMENT));
  if (BYTES[typeOf(out)] !== BYTES[s.type] || typeOf(out) !== s.type) return undefined;
  new Uint8Array(out.buffer, out.byteOffset, s.bytes.length).set(s.bytes);
  return out;
}
