/** The second origin: the Xet bridge (signed URLs per Xet hash) and the plain content-addressed CDN. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accessDenied, notFound } from './http';
import { sign } from './resolve';
import { sendFile } from './sendFile';
import type { EmulatorState } from './state';
import type { EmulatorFile } from './types';

/**
 * The second origin's ETag: an MD5-like value as object stores send (an MD5 of the parts, not the
 * content's sha256), so a client that took it for the sha256 would fail here as on the real CDN.
 */
function storeEtag(f: EmulatorFile): string {
  return `"${createHash('md5').update(`${f.lfs}:${f.size}`).digest('hex')}"`;
}

export function cdnRoute(st: EmulatorState, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', st.cdnUrl);
  const x = /^\/xet-bridge-us\/([0-9a-f]{64})$/.exec(url.pathname);
  if (x) return bridge(st, req, res, url, x[1]!);
  const m = /^\/repos\/([^/]+)\/([0-9a-f]{64})$/.exec(url.pathname);
  if (m) return plainCdn(st, req, res, url, m[1]!.replace('--', '/'), m[2]!);
  notFound(res);
}

/** The bridge: a signed URL per Xet hash, checked when the request starts. */
function bridge(st: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL, xetHash: string): void {
  const expires = url.searchParams.get('Expires') ?? '';
  if (url.searchParams.get('Signature') !== sign(st, xetHash, expires)) return accessDenied(res, 'Invalid signature');
  if (Number(expires) * 1000 < Date.now()) return accessDenied(res, 'Request has expired');
  const f = [...st.repos.values()].flatMap((r) => r.files).find((x) => x.xetHash === xetHash);
  if (!f) return notFound(res);
  sendFile(st, req, res, f, { ETag: storeEtag(f), 'Cache-Control': 'public, max-age=604800, immutable' });
}

/** The plain CDN: a signed URL per LFS sha256. */
function plainCdn(st: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL, repoId: string, sha256: string): void {
  const expires = url.searchParams.get('Expires') ?? '';
  if (url.searchParams.get('Signature') !== sign(st, sha256, expires)) return accessDenied(res, 'Invalid signature');
  if (Number(expires) * 1000 < Date.now()) return accessDenied(res, 'Request has expired');
  const f = st.repos.get(repoId)?.files.find((x) => x.lfs === sha256);
  if (!f) return notFound(res);
  sendFile(st, req, res, f, { ETag: storeEtag(f), 'Cache-Control': 'public, max-age=604800, immutable', 'X-Cache': 'Miss from emulator' });
}
