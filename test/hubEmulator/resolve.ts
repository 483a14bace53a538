/**
 * The Hub's file route, /{repo}/resolve|raw/{rev}/{path}: a small file is sent from the Hub; an
 * LFS file answers a 302 to the second origin (a signed CDN URL, or in Xet mode a signed bridge
 * URL, or the Xet file info for a probe that asks for it).
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorized } from './gates';
import { hubError, repoNotFound } from './http';
import { sendFile } from './sendFile';
import { commitAt } from './state';
import type { EmulatorState, RepoState } from './state';
import type { EmulatorFile } from './types';

/** Answers the request if it is a resolve or raw URL; false when it is not. */
export function resolveRoute(st: EmulatorState, req: IncomingMessage, res: ServerResponse, path: string): boolean {
  const m = /^\/([^/]+\/[^/]+)\/(resolve|raw)\/([^/]+)\/(.+)$/.exec(path);
  if (!m) return false;
  const repo = st.repos.get(m[1]!);
  if (!authorized(st, req, res, m[1])) return true;
  if (!repo) {
    repoNotFound(res, st.hubUrl, req);
    return true;
  }
  const rev = m[3]!;
  const at = commitAt(repo, rev);
  if (!at) {
    hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
    return true;
  }
  // only the head's bytes are on disk: an older commit's file is served while it is unchanged since
  const f = repo.files.find((x) => x.path === m[4] && at.files.some((y) => y.path === x.path && y.oid === x.oid));
  if (!f) {
    // the repo and the revision exist: the Hub names the commit it looked in
    hubError(res, 404, 'EntryNotFound', `${m[4]} does not exist on "${rev}"`, { 'X-Repo-Commit': at.id });
    return true;
  }
  if (echoedAuthorization(st, req, res)) return true;
  const common = { 'X-Repo-Commit': at.id, ETag: `"${f.lfs ?? f.oid}"` };
  if (f.lfs && m[2] === 'resolve' && st.settings.xet) xetResolve(st, req, res, repo, f, common);
  else if (f.lfs && m[2] === 'resolve') cdnRedirect(st, res, repo, f, common);
  else sendFile(st, req, res, f, common);
  return true;
}

/** `echoAuthorization`: a 400 whose message carries the Authorization header (a Hub that leaks it back). */
function echoedAuthorization(st: EmulatorState, req: IncomingMessage, res: ServerResponse): boolean {
  if ((st.faults.echoAuthorization ?? 0) <= 0) return false;
  st.faults.echoAuthorization!--;
  hubError(res, 400, 'BadRequest', `Bad request: header "Authorization: ${req.headers.authorization ?? ''}" not accepted here`);
  return true;
}

/** The signature of a second-origin URL for `key` until `expires` (seconds). */
export function sign(st: EmulatorState, key: string, expires: string): string {
  return createHmac('sha256', st.secret).update(`${key}:${expires}`).digest('hex');
}

/** When a signed URL made now expires (seconds): after `bridgeTtlSeconds`, or already with `expiredRedirects`. */
function expiry(st: EmulatorState): string {
  const expired = (st.faults.expiredRedirects ?? 0) > 0;
  if (expired) st.faults.expiredRedirects!--;
  return String(Math.floor(Date.now() / 1000) + (expired ? -60 : st.settings.bridgeTtlSeconds));
}

/** Plain mode: a 302 to a signed, content-addressed CDN URL that expires as the bridge's do. */
function cdnRedirect(st: EmulatorState, res: ServerResponse, repo: RepoState, f: EmulatorFile, common: Record<string, string>): void {
  const expires = expiry(st);
  const location = `${st.cdnUrl}/repos/${repo.id.replace('/', '--')}/${f.lfs}?Expires=${expires}&Signature=${sign(st, f.lfs!, expires)}`;
  res.writeHead(302, {
    ...common,
    Location: location,
    'X-Linked-Etag': `"${f.lfs}"`,
    'X-Linked-Size': String(f.size),
    'Content-Length': '0',
  });
  res.end();
}

/** Xet mode: file info for a probe that asks for it, else a 302 to a signed bridge URL. */
function xetResolve(
  st: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  repo: RepoState,
  f: EmulatorFile,
  common: Record<string, string>,
): void {
  const xetHash = f.xetHash!;
  const linked = { 'X-Linked-Size': String(f.size), 'X-Linked-Etag': `"${f.lfs}"`, 'X-Xet-Hash': xetHash };
  if ((req.headers.accept ?? '').includes('application/vnd.xet-fileinfo+json')) {
    const refreshUrl = `${st.hubUrl}/api/models/${repo.id}/xet-read-token/${repo.commit}`;
    const reconstructionUrl = `${st.cdnUrl}/v1/reconstructions/${xetHash}`;
    const body = JSON.stringify({ casUrl: st.cdnUrl, hash: xetHash, refreshUrl, reconstructionUrl, etag: f.lfs, size: f.size });
    res.writeHead(200, {
      ...common,
      ...linked,
      'Content-Type': 'application/vnd.xet-fileinfo+json',
      'Content-Length': String(Buffer.byteLength(body)),
      Link: `<${refreshUrl}>; rel="xet-auth", <${reconstructionUrl}>; rel="xet-reconstruction-info"`,
    });
    res.end(body);
    return;
  }
  const expires = expiry(st);
  const range = encodeURIComponent(`bytes=0-${Math.max(0, f.size - 1)}`);
  const signed = `Expires=${expires}&Signature=${sign(st, xetHash, expires)}`;
  const location = `${st.cdnUrl}/xet-bridge-us/${xetHash}?X-Xet-Signed-Range=${range}&${signed}`;
  res.writeHead(302, { ...common, ...linked, Location: location, 'Content-Length': '0' });
  res.end();
}
