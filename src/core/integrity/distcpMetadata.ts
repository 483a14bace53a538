/**
 * What a torch.distributed.checkpoint `.metadata` says a checkpoint holds (docs/format.md section 9),
 * read from the plain records of `readPickle`. torch pickles its dataclasses through
 * `__reduce_ex__`: NEWOBJ of the class with no arguments, then BUILD with the instance's `__dict__`
 * (or `(None, slots)` for a slotted class; `copyreg._reconstructor` in protocols 0 and 1).
 */
import type { PickleGlobal, PickleObject, PickleValue } from './pickle';
import { readPickle } from './pickle';

/**
 * `unsafe`: the first global reference (`module.name`) that no checkpoint writer puts in a `.metadata`;
 * `pickle.load`, which the launcher reads the file with, would import it and may call it.
 */
export type DistcpMetadata =
  { ok: true; needBytes: Record<string, number>; tensors: number } | { ok: false; reason: string; unsafe?: string };

const METADATA_CLASS = 'torch.distributed.checkpoint.metadata.Metadata';
const STORAGE_INFO_CLASS = 'torch.distributed.checkpoint.filesystem._StorageInfo';
/** A shard's name becomes a file name in a folder: a plain name, never a path. */
const SHARD_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]{1,255}$/;

/** Reads `.metadata` bytes without executing them: the files it names with the bytes each must hold, and its tensor count. */
export function readDistcpMetadata(bytes: Uint8Array): DistcpMetadata {
  const p = readPickle(bytes);
  // checked on a refusal too: a payload before the point the reader stopped at runs before pickle.load fails there
  const foreign = p.globals.find((g) => !knownGlobal(g));
  if (foreign)
    return {
      ok: false,
      reason: `.metadata refers to ${foreign.module}.${foreign.name}, which torch would call when loading it and no checkpoint writer uses`,
      unsafe: `${foreign.module}.${foreign.name}`,
    };
  if (!p.ok) return { ok: false, reason: `.metadata cannot be read safely: ${p.reason}` };
  const top = p.value;
  if (classOf(top) !== METADATA_CLASS) return { ok: false, reason: `.metadata does not hold a ${METADATA_CLASS}` };
  const fields = stateOf(top as PickleObject);
  const sdm = fields.get('state_dict_metadata');
  const storage = fields.get('storage_data');
  if (!isDict(sdm)) return { ok: false, reason: '.metadata has no state_dict_metadata dict' };
  if (!isDict(storage)) return { ok: false, reason: '.metadata has no storage_data dict (not written by a FileSystemWriter?)' };
  const need = new Map<string, number>();
  for (const [, info] of storage.entries) {
    if (classOf(info) !== STORAGE_INFO_CLASS) return { ok: false, reason: `a storage_data value is not a ${STORAGE_INFO_CLASS}` };
    const f = stateOf(info as PickleObject);
    const path = f.get('relative_path');
    const offset = f.get('offset');
    const length = f.get('length');
    if (typeof path !== 'string' || !SHARD_NAME.test(path))
      return {
        ok: false,
        reason:
          `a storage_data entry names ${typeof path === 'string' ? JSON.stringify(path).slice(0, 80) : 'no string'}, ` +
          'not a plain file name',
      };
    if (!isCount(offset) || !isCount(length))
      return { ok: false, reason: `a storage_data entry of ${path} has no whole offset and length` };
    need.set(path, Math.max(need.get(path) ?? 0, offset + length));
  }
  const names = [...need.keys()].sort();
  return { ok: true, needBytes: Object.fromEntries(names.map((n) => [n, need.get(n)!])), tensors: sdm.entries.length };
}

const isCount = (v: PickleValue | undefined): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

const isDict = (v: PickleValue | undefined): v is { kind: 'dict'; entries: [PickleValue, PickleValue][] } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && v.kind === 'dict';

function isGlobal(v: PickleValue | undefined): v is PickleGlobal {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && v.kind === 'global';
}

/** The class an object record stands for: its callee, or the class a copyreg helper was handed. */
function classOf(v: PickleValue): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array || v.kind !== 'object') return undefined;
  let cls: PickleValue | undefined = v.callee;
  if (isGlobal(cls) && cls.module === 'copyreg' && (cls.name === '_reconstructor' || cls.name === '__newobj__')) cls = v.args[0];
  return isGlobal(cls) ? `${cls.module}.${cls.name}` : undefined;
}

/** An object record's fields by name, from its BUILD state (`__dict__`, or the slots of `(None, slots)`). */
function stateOf(o: PickleObject): Map<string, PickleValue> {
  const out = new Map<string, PickleValue>();
  const add = (d: PickleValue | undefined): void => {
    if (isDict(d)) for (const [k, v] of d.entries) if (typeof k === 'string') out.set(k, v);
  };
  const s = o.state;
  if (typeof s === 'object' && s !== null && !Array.isArray(s) && !(s instanceof Uint8Array) && s.kind === 'tuple') {
    add(s.items[0]);
    add(s.items[1]);
  } else add(s);
  return out;
}

const TORCH_NAMES =
  /^(Size|u?int(8|16|32|64)|float(16|32|64)|bfloat16|half|double|bool|complex(32|64|128)|float8_\w+|(strided|sparse_\w+|_mkldnn))$/;

/**
 * The names torch.distributed.checkpoint and Megatron's torch_dist write into `.metadata`. Any other
 * name is something `pickle.load` (which torch uses to read the file) would import and may call:
 * such a file is not trusted as a checkpoint's metadata.
 */
function knownGlobal(g: PickleGlobal): boolean {
  const { module: m, name: n } = g;
  if (m === 'torch.distributed.checkpoint' || m.startsWith('torch.distributed.checkpoint.'))
    return /^_?[A-Z]\w*$|^_MEM_FORMAT_ENCODING$/.test(n);
  if (m === 'torch') return TORCH_NAMES.test(n);
  if (m === 'torch.serialization') return n === '_get_layout';
  if (m === 'pathlib') return /^(Pure)?(Posix|Windows)?Path$/.test(n);
  if (m === 'collections') return n === 'OrderedDict';
  if (m === 'builtins' || m === '__builtin__') return ['set', 'frozenset', 'bytearray', 'slice', 'complex', 'object'].includes(n);
  if (m === 'copyreg' || m === 'copy_reg') return n === '_reconstructor' || n === '__newobj__';
  if (m === '_codecs') return n === 'encode';
  if (m.startsWith('megatron.core.dist_checkpointing.')) return /^[A-Z]\w*$/.test(n);
  return false;
}
