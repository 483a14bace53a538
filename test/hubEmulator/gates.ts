/** What the Hub checks before a route answers: the token, and the faults that stand for the Hub failing. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hubError, repoNotFound } from './http';
import type { EmulatorState } from './state';

/** The bearer token of a request, if it carries one. */
export function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7) : undefined;
}

/** Answers 401 and returns false when the request may not see `repo` (or any repo, with `requiredToken`). */
export function authorized(st: EmulatorState, req: IncomingMessage, res: ServerResponse, repo: string | undefined): boolean {
  const token = bearer(req);
  if (token !== undefined && !st.validTokens.has(token)) {
    hubError(res, 401, undefined, 'Invalid credentials in Authorization header');
    return false;
  }
  const needs = st.options.requiredToken !== undefined || (repo !== undefined && st.privateRepos.has(repo));
  if (needs && token === undefined) {
    repoNotFound(res, st.hubUrl, req);
    return false;
  }
  return true;
}

/** `rateLimit`: a 429 for any route, with `Retry-After` or the IETF `RateLimit` header. */
export function rateLimited(st: EmulatorState, res: ServerResponse): boolean {
  const rl = st.faults.rateLimit;
  if (!rl || rl.count <= 0) return false;
  rl.count--;
  hubError(res, 429, 'RateLimited', 'You have been rate-limited; you can retry this action later.', {
    ...(rl.retryAfter !== undefined ? { 'Retry-After': String(rl.retryAfter) } : {}),
    ...(rl.reset !== undefined ? { RateLimit: `"resolvers";r=0;t=${rl.reset}`, 'RateLimit-Policy': '"resolvers";q=3000;w=300' } : {}),
  });
  return true;
}

/** `apiSilent` (no answer, or headers and one byte) and `apiErrors` (a 5xx) for /api/ routes. */
export function apiFailed(st: EmulatorState, res: ServerResponse, path: string): boolean {
  if (!path.startsWith('/api/')) return false;
  const as = st.faults.apiSilent;
  if (as && as.count > 0) {
    as.count--;
    if (as.afterHeaders) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{');
    }
    return true;
  }
  const ae = st.faults.apiErrors;
  if (ae && ae.count > 0) {
    ae.count--;
    res.writeHead(ae.status, { 'Content-Type': 'text/plain' });
    res.end("Internal Error - We're working hard to fix this as soon as possible!");
    return true;
  }
  return false;
}
