/** The Hub's /api/ routes: whoami, model info (and its revision form), the tree and paths-info. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorized, bearer } from './gates';
import { hubError, json, readBody, repoNotFound } from './http';
import type { EmulatorState, RepoState } from './state';
import type { EmulatorFile } from './types';

/** Answers the request if it is one of the /api/ routes; false when it is not. */
export function apiRoute(st: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL, path: string): boolean {
  if (path === '/api/whoami-v2') {
    whoami(st, req, res);
    return true;
  }
  // /api/models/{owner}/{name}[/revision/{rev}] | /tree/{rev}[/{path}] | /paths-info/{rev}
  const m = /^\/api\/models\/([^/]+\/[^/]+)(?:\/(revision|tree|paths-info)\/([^/]+)(\/.*)?)?$/.exec(path);
  if (!m) return false;
  const repo = st.repos.get(m[1]!);
  if (!authorized(st, req, res, m[1])) return true;
  if (!repo) {
    repoNotFound(res, st.hubUrl, req);
    return true;
  }
  const kind = m[2];
  const rev = m[3] ?? 'main';
  if (rev !== 'main' && rev !== 'HEAD' && rev !== repo.commit) {
    hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
    return true;
  }
  if (kind === undefined || kind === 'revision') modelInfo(st, res, repo);
  else if (kind === 'paths-info') void pathsInfo(st, req, res, repo);
  else tree(st, res, url, repo, rev, (m[4] ?? '').replace(/^\//, ''));
  return true;
}

function whoami(st: EmulatorState, req: IncomingMessage, res: ServerResponse): void {
  const token = bearer(req);
  if (!token || !st.validTokens.has(token)) return hubError(res, 401, undefined, 'Invalid credentials in Authorization header');
  json(res, 200, {
    type: 'user',
    id: '66a0000000000000000000aa',
    name: 'demo-user',
    fullname: 'Demo User',
    email: 'demo@example.com',
    emailVerified: true,
    isPro: false,
    canPay: false,
    avatarUrl: '',
    periodEnd: null,
    billingMode: 'postpaid',
    orgs: [],
    auth: { type: 'access_token', accessToken: { displayName: 'rlrb-test', role: 'read', createdAt: '2026-01-01T00:00:00.000Z' } },
  });
}

function modelInfo(st: EmulatorState, res: ServerResponse, repo: RepoState): void {
  json(res, 200, {
    _id: '66a0000000000000000000bb',
    id: repo.id,
    modelId: repo.id,
    author: repo.id.split('/')[0],
    sha: repo.commit,
    private: st.privateRepos.has(repo.id),
    gated: false,
    disabled: false,
    downloads: 0,
    likes: 0,
    lastModified: '2026-09-23T00:00:00.000Z',
    tags: ['reinforcement-learning'],
    pipeline_tag: 'reinforcement-learning',
    library_name: 'transformers',
    siblings: repo.files.map((f) => ({ rfilename: f.path })),
    createdAt: '2026-09-01T00:00:00.000Z',
    usedStorage: repo.files.reduce((s, f) => s + f.size, 0),
  });
}

/** A file's entry as the tree and paths-info list it (with the test's `treeOverride` merged in). */
function entry(st: EmulatorState, f: EmulatorFile): Record<string, unknown> {
  return {
    type: 'file',
    oid: f.oid,
    size: f.size,
    path: f.path,
    ...(f.lfs ? { lfs: { oid: f.lfs, size: f.size, pointerSize: 134 } } : {}),
    ...(f.lfs && st.settings.xet ? { xetHash: f.xetHash } : {}),
    ...(st.faults.treeOverride?.[f.path] ?? {}),
  };
}

function directory(path: string): Record<string, unknown> {
  return { type: 'directory', oid: createHash('sha1').update(path).digest('hex'), size: 0, path };
}

async function pathsInfo(st: EmulatorState, req: IncomingMessage, res: ServerResponse, repo: RepoState): Promise<void> {
  const body = await readBody(req);
  let paths: string[];
  try {
    paths = (JSON.parse(body) as { paths?: string[] }).paths ?? [];
  } catch {
    return hubError(res, 400, 'BadRequest', 'Invalid JSON body');
  }
  const out = paths.flatMap((p) => {
    const f = repo.files.find((x) => x.path === p);
    if (f) return [entry(st, f)];
    if (repo.files.some((x) => x.path.startsWith(p + '/'))) return [directory(p)];
    return [];
  });
  json(res, 200, out, { 'X-Repo-Commit': repo.commit });
}

/** The entries under `sub`: directories where first seen, alongside files, as the Hub lists them. */
function treeItems(st: EmulatorState, repo: RepoState, sub: string, recursive: boolean): Record<string, unknown>[] {
  const prefix = sub === '' ? '' : sub + '/';
  const items: Record<string, unknown>[] = [];
  const dirs = new Set<string>();
  for (const f of repo.files) {
    if (!f.path.startsWith(prefix)) continue;
    const parts = f.path.slice(prefix.length).split('/');
    for (let i = 1; i < parts.length; i++) {
      if (!recursive && i > 1) break;
      const d = prefix + parts.slice(0, i).join('/');
      if (!dirs.has(d)) {
        dirs.add(d);
        items.push(directory(d));
      }
    }
    if (recursive || parts.length === 1) items.push(entry(st, f));
  }
  return items;
}

/** One page of the tree, the next page named in `Link`, and the tree faults. */
function tree(st: EmulatorState, res: ServerResponse, url: URL, repo: RepoState, rev: string, sub: string): void {
  if (sub !== '' && !repo.files.some((f) => f.path.startsWith(sub + '/'))) {
    return hubError(res, 404, 'EntryNotFound', `${sub} does not exist on "${rev}"`);
  }
  const items = treeItems(st, repo, sub, url.searchParams.get('recursive') === 'true');
  const cursor = Number(url.searchParams.get('cursor') ?? '0');
  const pageItems = items.slice(cursor, cursor + st.pageSize);
  const headers: Record<string, string> = { 'X-Repo-Commit': repo.commit };
  if (cursor + st.pageSize < items.length || st.faults.treeEndless) {
    const next = new URL(url.toString());
    next.searchParams.set('cursor', String(cursor + st.pageSize));
    headers['Link'] = `<${next.toString()}>; rel="next"`;
  }
  if (st.faults.treeLinkLoop) headers['Link'] = `<${url.toString()}>; rel="next"`;
  if (st.faults.treePadBytes) {
    const text = JSON.stringify(pageItems) + ' '.repeat(st.faults.treePadBytes);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
    res.end(text);
    return;
  }
  json(res, 200, pageItems, headers);
}
