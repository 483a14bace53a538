/** Small answers every route writes: JSON, the Hub's error shape, the CDN's XML refusal, a request body. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The Hub's error: `{"error": ...}` with `X-Error-Code`/`X-Error-Message` when it names a code. */
export function hubError(
  res: ServerResponse,
  status: number,
  code: string | undefined,
  message: string,
  headers: Record<string, string> = {},
): void {
  json(
    res,
    status,
    { error: message },
    {
      ...(code ? { 'X-Error-Code': code, 'X-Error-Message': message.split('\n')[0]! } : {}),
      'X-Request-Id': `Root=1-${randomBytes(8).toString('hex')}`,
      ...headers,
    },
  );
}

/** The Hub's answer for a repo that does not exist or that the caller may not see. */
export function repoNotFound(res: ServerResponse, hubUrl: string, req: IncomingMessage, status = 401): void {
  hubError(
    res,
    status,
    'RepoNotFound',
    `Repository Not Found for url: ${hubUrl}${req.url}.\nPlease make sure you specified the correct \`repo_id\` and \`repo_type\`.\nIf you are trying to access a private or gated repo, make sure you are authenticated.`,
  );
}

/** An object store's refusal (S3 and the Xet bridge answer so). */
export function accessDenied(res: ServerResponse, why: string): void {
  res.writeHead(403, { 'Content-Type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${why}</Message></Error>`);
}

export function notFound(res: ServerResponse): void {
  res.writeHead(404);
  res.end();
}

/** The request's body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
