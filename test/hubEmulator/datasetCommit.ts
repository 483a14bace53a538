/**
 * The Hub's write routes for dataset repos, as small as `@huggingface/hub`'s `createRepo` and
 * `uploadFiles` need: create a repo, preupload (every file inlined in the commit: "regular"),
 * commit (NDJSON: a header, then each file base64). What a commit wrote is kept in memory for
 * a test to read back. A valid Bearer token is required.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** dataset repo id -> path -> bytes */
export type DatasetStore = Map<string, Map<string, Buffer>>;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object';
}

async function commit(req: IncomingMessage, res: ServerResponse, files: Map<string, Buffer>, hubUrl: string, repo: string): Promise<void> {
  const lines = (await body(req)).split('\n').filter((l) => l.trim() !== '');
  const writes: [string, Buffer][] = [];
  for (const line of lines) {
    const op: unknown = JSON.parse(line);
    if (!isRecord(op) || !isRecord(op['value'])) return send(res, 400, { error: 'bad NDJSON line' });
    const v = op['value'];
    if (op['key'] === 'file' && typeof v['path'] === 'string' && typeof v['content'] === 'string' && v['encoding'] === 'base64')
      writes.push([v['path'], Buffer.from(v['content'], 'base64')]);
    else if (op['key'] !== 'header') return send(res, 400, { error: `unsupported operation ${String(op['key'])}` });
  }
  for (const [p, b] of writes) files.set(p, b);
  const oid = createHash('sha1').update(lines.join('\n')).digest('hex');
  send(res, 200, { commitOid: oid, commitUrl: `${hubUrl}/datasets/${repo}/commit/${oid}` });
}

/** Answers a dataset write route and returns true; false for any other path. */
export function datasetRoute(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  ctx: { store: DatasetStore; hubUrl: string; tokenOk: (req: IncomingMessage) => boolean },
): boolean {
  const create = path === '/api/repos/create';
  const m = /^\/api\/datasets\/([^/]+\/[^/]+)\/(preupload|commit)\/[^/]+$/.exec(path);
  if ((!create && !m) || req.method !== 'POST') return false;
  if (!ctx.tokenOk(req)) {
    send(res, 401, { error: 'Invalid credentials in Authorization header' });
    return true;
  }
  void (async (): Promise<void> => {
    if (create) {
      const b: unknown = JSON.parse(await body(req));
      if (!isRecord(b) || b['type'] !== 'dataset') return send(res, 400, { error: 'only dataset repos here' });
      const id = `${String(b['organization'])}/${String(b['name'])}`;
      if (ctx.store.has(id)) return send(res, 409, { error: 'You already created this dataset repo', url: `${ctx.hubUrl}/datasets/${id}` });
      ctx.store.set(id, new Map());
      return send(res, 200, { url: `${ctx.hubUrl}/datasets/${id}`, name: id });
    }
    const files = ctx.store.get(m![1]!);
    if (!files) return send(res, 404, { error: 'Repository not found' });
    if (m![2] === 'preupload') {
      const b: unknown = JSON.parse(await body(req));
      const list = isRecord(b) && Array.isArray(b['files']) ? b['files'] : [];
      return send(res, 200, {
        files: list.map((f: unknown) => ({ path: isRecord(f) ? f['path'] : '', uploadMode: 'regular', shouldIgnore: false })),
      });
    }
    return commit(req, res, files, ctx.hubUrl, m![1]!);
  })().catch((e: unknown) => send(res, 500, { error: String(e) }));
  return true;
}
