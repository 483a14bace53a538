/** A safetensors shard's header (8 bytes of length, then JSON), and the shard list of an index. */
import { open } from 'node:fs/promises';

export interface SafetensorsHeader {
  /** where the tensor data begins: 8 + the header's length */
  dataStart: number;
  /** the end of the last tensor's bytes, relative to dataStart */
  dataEnd: number;
  tensors: { name: string; dtype: string; count: number }[];
}

/** safetensors' own bound on a header. */
export const MAX_HEADER_BYTES = 100_000_000;
/** An index of a few thousand tensors is a few hundred KB. */
export const MAX_INDEX_BYTES = 32 << 20;
export const SINGLE_FILE = 'model.safetensors';
export const INDEX_FILE = 'model.safetensors.index.json';
/** Shards sit beside their index: a plain name, never a path. */
const SHARD_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]{1,255}$/;

/** Checks a parsed header (the tensors' shapes and offsets) and sums it up. */
export function summarizeHeader(header: unknown, headerLength: number): SafetensorsHeader | Error {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return new Error('its header is not a JSON object');
  const tensors: SafetensorsHeader['tensors'] = [];
  let dataEnd = 0;
  for (const [name, info] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') continue;
    const t = info as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const shape = t.shape;
    const offs = t.data_offsets;
    if (typeof t.dtype !== 'string' || !Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && (d as number) >= 0))
      return new Error(`tensor ${JSON.stringify(name).slice(0, 80)} has no dtype and shape`);
    if (!Array.isArray(offs) || offs.length !== 2 || !offs.every((o) => Number.isSafeInteger(o) && (o as number) >= 0) || offs[0] > offs[1])
      return new Error(`tensor ${JSON.stringify(name).slice(0, 80)} has no valid data_offsets`);
    dataEnd = Math.max(dataEnd, offs[1] as number);
    tensors.push({ name, dtype: t.dtype, count: (shape as number[]).reduce((a, b) => a * b, 1) });
  }
  return { dataStart: 8 + headerLength, dataEnd, tensors };
}

/** Reads a local shard's 8 bytes and header, never its body. */
export async function readLocalHeader(path: string): Promise<SafetensorsHeader | Error> {
  const fh = await open(path, 'r');
  try {
    const len = Buffer.alloc(8);
    if ((await fh.read(len, 0, 8, 0)).bytesRead < 8) return new Error('it is shorter than its 8-byte header length');
    const n = len.readBigUInt64LE(0);
    if (n === 0n || n > BigInt(MAX_HEADER_BYTES)) return new Error(`its header length ${n} is out of bounds`);
    const buf = Buffer.alloc(Number(n));
    if ((await fh.read(buf, 0, buf.length, 8)).bytesRead < buf.length) return new Error('it ends inside its header');
    let json: unknown;
    try {
      json = JSON.parse(buf.toString('utf8'));
    } catch {
      return new Error('its header is not valid JSON');
    }
    return summarizeHeader(json, buf.length);
  } finally {
    await fh.close();
  }
}

/** The shard files an index names (the distinct values of its weight_map), or why it cannot tell. */
export function shardsFromIndex(text: string): string[] | { reason: string } {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return { reason: `${INDEX_FILE} is not valid JSON` };
  }
  const wm = (j as { weight_map?: unknown } | null)?.weight_map;
  if (typeof wm !== 'object' || wm === null || Array.isArray(wm)) return { reason: `${INDEX_FILE} has no weight_map` };
  const shards = new Set<string>();
  for (const v of Object.values(wm as Record<string, unknown>)) {
    if (typeof v !== 'string' || !SHARD_NAME.test(v))
      return { reason: `${INDEX_FILE} names ${JSON.stringify(String(v)).slice(0, 80)}, not a plain file name beside it` };
    shards.add(v);
  }
  return [...shards].sort();
}
