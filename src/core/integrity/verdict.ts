/** The pure rules of docs/format.md section 9, shared by the Hub and the folder checks. */
import type { DistcpMetadata } from './distcpMetadata';
import type { SafetensorsHeader } from './safetensorsHeader';
import type { CheckReport, FileEntry, HfCheck, LatestCheck, ResumeCheck } from './types';

/** Megatron writes these beside the shards; the launcher reads both. */
const SIDE_FILES = ['common.pt', 'metadata.json'];

/** A resume iteration from its files and what its `.metadata` said (undefined: no `.metadata`). */
export function resumeVerdict(files: FileEntry[], md: DistcpMetadata | undefined): ResumeCheck {
  if (md === undefined)
    return { complete: null, reason: 'it has no .metadata (not a torch_dist checkpoint, or its upload never got that far)' };
  if (!md.ok) return { complete: null, reason: md.reason, ...(md.unsafe !== undefined ? { unsafe: md.unsafe } : {}) };
  const size = new Map(files.map((f) => [f.name, f.size]));
  const names = Object.keys(md.needBytes).sort();
  const missing = [...names.filter((n) => !size.has(n)), ...SIDE_FILES.filter((n) => !size.has(n))];
  const short = names.filter((n) => size.has(n) && size.get(n)! < md.needBytes[n]!);
  return {
    complete: missing.length === 0 && short.length === 0,
    files: names.length,
    needBytes: md.needBytes,
    tensors: md.tensors,
    missing,
    short,
  };
}

/** One shard's header against the file's size: every tensor's bytes must lie within the file. */
export function shardFits(h: SafetensorsHeader, size: number): boolean {
  return h.dataStart + h.dataEnd <= size;
}

/**
 * An hf iteration: `shards` from the index (or the single model.safetensors), or a reason it cannot tell;
 * `headers` for the shards present (an Error where one could not be read).
 */
export function hfVerdict(
  shards: string[] | { reason: string },
  files: FileEntry[],
  headers: Map<string, SafetensorsHeader | Error>,
): HfCheck {
  if (!Array.isArray(shards)) return { complete: null, reason: shards.reason, shards: 0, missing: [], parameters: null };
  const size = new Map(files.map((f) => [f.name, f.size]));
  const missing = shards.filter((s) => !size.has(s)).sort();
  const base = { shards: shards.length, missing, parameters: null };
  if (missing.length > 0) return { complete: false, ...base };
  const dtypes: Record<string, number> = {};
  let parameters = 0;
  for (const s of shards) {
    const h = headers.get(s);
    if (h === undefined) return { complete: null, reason: `the header of ${s} was not read`, ...base };
    if (h instanceof Error) return { complete: false, reason: `${s}: ${h.message}`, ...base };
    if (!shardFits(h, size.get(s)!))
      return { complete: false, reason: `${s} is ${size.get(s)} bytes, its header needs ${h.dataStart + h.dataEnd}`, ...base };
    for (const t of h.tensors) {
      parameters += t.count;
      dtypes[t.dtype] = (dtypes[t.dtype] ?? 0) + t.count;
    }
  }
  return { complete: true, ...base, parameters, dtypes };
}

/** The latest file's number against the resume iterations' verdicts. */
export function latestVerdict(resume: Record<string, ResumeCheck>, names: number | null): LatestCheck {
  const complete = Object.entries(resume)
    .filter(([, r]) => r.complete === true)
    .map(([dir]) => Number(dir.slice('iter_'.length)));
  const named = names === null ? undefined : resume[iterKey(names)];
  return { names, namesComplete: named?.complete === true, lastComplete: complete.length > 0 ? Math.max(...complete) : null };
}

export const iterKey = (n: number): string => `iter_${String(n).padStart(7, '0')}`;

/** Orders a report's iterations by number (JSON objects keep insertion order). */
export function sortedReport(r: CheckReport): CheckReport {
  const sort = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => byCodePoint(a, b)));
  return { resume: sort(r.resume), hf: sort(r.hf), latest: r.latest };
}

/** Names in code-point order, as Python's sorted() and the reference order them. */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
