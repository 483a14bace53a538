/**
 * Bytes of one Hub file by HTTP: the whole body streamed (a plain GET) or a range of it
 * (`Range: bytes=a-b`). The URL comes from `fileDownloadInfo` (the resolve route, which may
 * redirect to a CDN or a Xet bridge), fetched through our own fetch so that the token never
 * leaves the endpoint's origin. A 206 must be for exactly the range asked; a 200 to a ranged
 * request (a server that ignores Range), a wrong Content-Range or Content-Length, an encoded
 * body (gzip: the bytes asked for are the file's, `Accept-Encoding: identity` is sent) or a
 * body of another length than the range is refused at once (never retried).
 */
import { fileDownloadInfo } from '@huggingface/hub';
import { makeHubFetch } from '../hubFetch';
import type { HubFetch } from '../hubFetch';
import { HubError, toHubError } from '../errors';
import { encodePath } from '../download/fetchFile';
import { shown } from '../treeEntry';
import type { HubConnection } from '../model';
import { DEFAULT_STALL_MS, watched } from '../retry';

/** One file of a repo at one commit, as its tree entry says. */
export interface HubFileAt {
  repo: string;
  commit: string;
  path: string;
  size: number;
}

/** An error body is a line or two. */
const ERROR_BODY_MAX_BYTES = 1 << 20;

function hubFetchFor(c: HubConnection): HubFetch {
  return makeHubFetch(c.endpoint, c.signal, c.baseFetch, { bodyLimit: (_u, status) => (status >= 400 ? ERROR_BODY_MAX_BYTES : undefined) });
}

/** The body of bytes [start, end] of `f` (the whole file, by a plain GET, when start is 0 and end the last byte). */
export async function openBytes(
  c: HubConnection,
  f: HubFileAt,
  start: number,
  end: number,
): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const hf = hubFetchFor(c);
  const ctx = {
    endpoint: c.endpoint,
    repo: f.repo,
    revision: f.commit,
    path: f.path,
    token: c.token,
    tokenSource: c.tokenSource,
    hubFetch: hf,
  };
  try {
    return await open(c, f, start, end, hf);
  } catch (e) {
    throw toHubError(e, ctx);
  }
}

async function open(
  c: HubConnection,
  f: HubFileAt,
  start: number,
  end: number,
  hf: HubFetch,
): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const creds = c.token ? { accessToken: c.token } : {};
  const repo = { type: 'model' as const, name: f.repo };
  const info = await fileDownloadInfo({
    repo,
    path: encodePath(f.path),
    revision: f.commit,
    hubUrl: c.endpoint,
    fetch: hf.fetch,
    ...creds,
  });
  if (!info) throw new HubError('entry-not-found', `${f.path} is no longer in ${f.repo} at ${f.commit.slice(0, 8)}`);
  if (info.size !== f.size)
    throw new HubError('other', `${f.repo}/${f.path}: the Hub now says ${info.size} bytes, the listing said ${f.size}`);
  const whole = start === 0 && end === f.size - 1;
  const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
  if (c.token) headers['Authorization'] = `Bearer ${c.token}`;
  if (!whole) headers['Range'] = `bytes=${start}-${end}`;
  const res = await hf.fetch(info.url, { headers });
  const from = new URL(res.url || info.url).origin;
  const refuse = async (e: Error): Promise<never> => {
    await res.body?.cancel().catch(() => undefined);
    throw e;
  };
  if (!res.ok) return refuse(Object.assign(new Error(`HTTP ${res.status}`), { statusCode: res.status }));
  const want = `bytes ${start}-${end}/${f.size}`;
  if (!whole && res.status !== 206)
    return refuse(
      new HubError(
        'other',
        `${from} ignored the Range header (HTTP ${res.status} to a request for ${want}); refused`,
        undefined,
        res.status,
      ),
    );
  if (!whole && res.headers.get('content-range')?.trim() !== want)
    return refuse(
      new HubError(
        'other',
        `${from} answered with Content-Range ${shown(res.headers.get('content-range'))} to a request for ${want}; refused`,
        undefined,
        206,
      ),
    );
  const encoding = res.headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity')
    return refuse(
      new HubError(
        'other',
        `${from} answered ${want} with Content-Encoding ${shown(encoding)}, not the file's bytes; refused`,
        undefined,
        res.status,
      ),
    );
  const declared = res.headers.get('content-length');
  if (!whole && declared !== null && declared.trim() !== String(end - start + 1))
    return refuse(
      new HubError(
        'other',
        `${from} answered ${want} with Content-Length ${shown(declared)}, not ${end - start + 1}; refused`,
        undefined,
        206,
      ),
    );
  if (whole && res.status !== 200)
    return refuse(new HubError('server', `${from} answered HTTP ${res.status} to a file request`, undefined, res.status));
  if (!res.body) return refuse(new HubError('server', `${from} sent no body for ${f.path}`));
  return res.body.getReader();
}

/**
 * Bytes [offset, offset + length) of `f`, whole or an error; a request that gets no byte
 * for `stallMs` (its response headers included) is dropped.
 */
export function getBytes(c: HubConnection, f: HubFileAt, offset: number, length: number, stallMs = DEFAULT_STALL_MS): Promise<Buffer> {
  if (length === 0) return Promise.resolve(Buffer.alloc(0));
  return watched(stallMs, c.signal, (signal, moved) => readBytes({ ...c, signal }, f, offset, length, moved));
}

async function readBytes(c: HubConnection, f: HubFileAt, offset: number, length: number, moved: (n: number) => void): Promise<Buffer> {
  const reader = await openBytes(c, f, offset, offset + length - 1);
  const out = Buffer.allocUnsafe(length);
  let got = 0;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      if (got + r.value.length > length)
        throw new HubError('other', `${f.repo}/${f.path}: the server sent more bytes than the range asked; refused`);
      out.set(r.value, got);
      got += r.value.length;
      moved(r.value.length);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    throw e instanceof HubError ? e : toHubError(e, { endpoint: c.endpoint, repo: f.repo, path: f.path, token: c.token });
  }
  // a body cut short by the link fails the read above (and is retried); one the server ended short is a wrong answer
  if (got < length) throw new HubError('other', `${f.repo}/${f.path}: the server ended the range after ${got} of ${length} bytes; refused`);
  return out;
}
