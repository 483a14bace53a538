/**
 * A tree entry as the Hub sent it, checked before anything uses it: a path is a string,
 * a size a whole number of bytes, a hash 40 (git sha1) or 64 (sha256) lowercase hex
 * digits, since the downloader names files after them and compares them with digests.
 */
/** One file of the repo tree, as listed. */
export interface HubFile {
  path: string;
  size: number;
  /** git blob sha1 */
  oid: string;
  /** sha256 of the content, for LFS files */
  lfsSha256?: string;
  xetHash?: string;
}

export interface RefusedEntry {
  /** the entry's path, or `tree entry #N` when it has no usable path */
  path: string;
  reason: string;
}

const SHA1 = /^[0-9a-f]{40}$/;
const SHA256 = /^[0-9a-f]{64}$/;

export const isSha1 = (s: unknown): s is string => typeof s === 'string' && SHA1.test(s);
export const isSha256 = (s: unknown): s is string => typeof s === 'string' && SHA256.test(s);

/** Shows a value from a server in a message: quoted, escaped, cut short. */
export function shown(v: unknown): string {
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  const q = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  return typeof v === 'string' ? q : `${q.slice(1, -1)} (${typeof v})`;
}

/** A file entry, null for a directory (or another type), or what is wrong with it. */
export function checkTreeEntry(e: unknown, index: number): HubFile | RefusedEntry | null {
  if (typeof e !== 'object' || e === null) return { path: `tree entry #${index}`, reason: 'it is not an object' };
  const r = e as Record<string, unknown>;
  if (r['type'] !== 'file') return null;
  const path = r['path'];
  if (typeof path !== 'string' || path === '' || /[\u0000-\u001f\u007f]/.test(path))
    return { path: `tree entry #${index}`, reason: `its path ${shown(path)} is not a usable file name` };
  const size = r['size'];
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    return { path, reason: `its size ${shown(size)} is not a whole number of bytes` };
  if (!isSha1(r['oid'])) return { path, reason: `its oid ${shown(r['oid'])} is not 40 lowercase hex digits` };
  const lfs = r['lfs'];
  let lfsSha256: string | undefined;
  if (lfs !== undefined && lfs !== null) {
    const l = lfs as Record<string, unknown>;
    if (typeof lfs !== 'object' || !isSha256(l['oid']))
      return { path, reason: `its lfs.oid ${shown(l['oid'])} is not 64 lowercase hex digits` };
    if (l['size'] !== undefined && l['size'] !== size) return { path, reason: `its lfs.size ${shown(l['size'])} is not its size ${size}` };
    lfsSha256 = l['oid'];
  }
  const xet = r['xetHash'];
  return { path, size, oid: r['oid'], ...(lfsSha256 ? { lfsSha256 } : {}), ...(isSha256(xet) ? { xetHash: xet } : {}) };
}

export function isRefused(x: HubFile | RefusedEntry): x is RefusedEntry {
  return 'reason' in x;
}
