/** The Hub's /api/ routes: whoami, model info (and its revision form), the tree, paths-info, refs and commits. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorized, bearer } from './gates';
import { hubError, json, readBody, repoNotFound } from './http';
import { commitAt } from './state';
import type { EmulatorState, RepoState } from './state';
import type { EmulatorCommit, EmulatorFile } from './types';

/** Answers the request if it is one of the /api/ routes; false when it is not. */
export function apiRoute(st: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL, path: string): boolean {
  if (path === '/api/whoami-v2') {
    whoami(st, req, res);
    return true;
  }
  // /api/models/{owner}/{name}[/revision/{rev}] | /tree/{rev}[/{path}] | /paths-info/{rev} | /commits/{rev} | /refs
  const m = /^\/api\/models\/([^/]+\/[^/]+)(?:\/(revision|tree|paths-info|commits)\/([^/]+)(\/.*)?|\/(refs))?$/.exec(path);
  if (!m) return false;
  const repo = st.repos.get(m[1]!);
  if (!authorized(st, req, res, m[1])) return true;
  if (!repo) {
    repoNotFound(res, st.hubUrl, req);
    return true;
  }
  if (m[5] === 'refs') {
    refs(res, repo, url);
    return true;
  }
  const kind = m[2];
  const rev = m[3] ?? 'main';
  const at = commitAt(repo, rev);
  if (!at) {
    hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
    return true;
  }
  const view = { repo, at };
  if (kind === undefined || kind === 'revision') modelInfo(st, res, view, url);
  else if (kind === 'paths-info') void pathsInfo(st, req, res, view);
  else if (kind === 'commits') commits(res, url, view);
  else tree(st, res, url, view, rev, (m[4] ?? '').replace(/^\//, ''));
  return true;
}

/** A repo as seen at one of its commits. */
interface RepoView {
  repo: RepoState;
  at: EmulatorCommit;
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

/** Model info; with `blobs=true` each sibling carries its size, blob id and LFS data, as the Hub's do. */
function modelInfo(st: EmulatorState, res: ServerResponse, { repo, at }: RepoView, url: URL): void {
  const blobs = url.searchParams.get('blobs') === 'true';
  const info: Record<string, unknown> = {
    _id: '66a0000000000000000000bb',
    id: repo.id,
    modelId: repo.id,
    author: repo.id.split('/')[0],
    sha: at.id,
    private: st.privateRepos.has(repo.id),
    gated: false,
    disabled: false,
    downloads: 0,
    likes: 0,
    lastModified: at.date,
    tags: ['reinforcement-learning'],
    pipeline_tag: 'reinforcement-learning',
    library_name: 'transformers',
    siblings: at.files.map((f) => (blobs ? sibling(f) : { rfilename: f.path })),
    createdAt: repo.commits[repo.commits.length - 1]!.date,
    usedStorage: at.files.reduce((s, f) => s + f.size, 0),
  };
  // as on the Hub: `expand` asks for those fields alone (and the ids), so a poll for the commit stays small
  const expand = url.searchParams.getAll('expand').concat(url.searchParams.getAll('expand[]'));
  if (expand.length === 0) return json(res, 200, info);
  json(res, 200, Object.fromEntries(Object.entries(info).filter(([k]) => k === '_id' || k === 'id' || expand.includes(k))));
}

function sibling(f: EmulatorFile): Record<string, unknown> {
  return {
    rfilename: f.path,
    blobId: f.oid,
    size: f.size,
    ...(f.lfs ? { lfs: { sha256: f.lfs, size: f.size, pointerSize: POINTER_SIZE } } : {}),
  };
}

/** The size of the LFS pointer file the emulator stands for (the Hub's are about this size). */
const POINTER_SIZE = 134;

/** The branches, tags and converts; `include_prs=1` adds the pull requests (here none). */
function refs(res: ServerResponse, repo: RepoState, url: URL): void {
  json(res, 200, {
    branches: [{ name: 'main', ref: 'refs/heads/main', targetCommit: repo.commit }],
    converts: [],
    tags: [],
    ...(url.searchParams.get('include_prs') === '1' ? { pullRequests: [] } : {}),
  });
}

/** The commits from `at` back to the first, newest first, a page of `limit` (default 50) at page `p`, the next named in `Link`. */
function commits(res: ServerResponse, url: URL, { repo, at }: RepoView): void {
  const chain = repo.commits.slice(repo.commits.indexOf(at));
  const limit = Math.min(1000, Math.max(1, Number(url.searchParams.get('limit') ?? '50') || 50));
  const page = Math.max(0, Number(url.searchParams.get('p') ?? '0') || 0);
  const items = chain.slice(page * limit, (page + 1) * limit).map((c) => ({
    id: c.id,
    title: c.title,
    message: '',
    authors: [{ user: 'demo-user', avatar: '' }],
    date: c.date,
  }));
  const headers: Record<string, string> = { 'X-Total-Count': String(chain.length) };
  if ((page + 1) * limit < chain.length) {
    const next = new URL(url.toString());
    next.searchParams.set('p', String(page + 1));
    next.searchParams.set('limit', String(limit));
    headers['Link'] = `<${next.toString()}>; rel="next"`;
  }
  json(res, 200, items, headers);
}

/** The last commit that changed a file (for `expand`): the oldest of the commits back from `at` that hold the same blob. */
function lastCommit(repo: RepoState, at: EmulatorCommit, f: EmulatorFile): Record<string, string> {
  let last = at;
  for (const c of repo.commits.slice(repo.commits.indexOf(at) + 1)) {
    if (c.files.find((x) => x.path === f.path)?.oid !== f.oid) break;
    last = c;
  }
  return { id: last.id, title: last.title, date: last.date };
}

/** A file's entry as the tree and paths-info list it (with the test's `treeOverride` merged in); `expand` adds its last commit. */
function entry(st: EmulatorState, f: EmulatorFile, expand?: RepoView): Record<string, unknown> {
  return {
    type: 'file',
    oid: f.oid,
    size: f.size,
    path: f.path,
    ...(f.lfs ? { lfs: { oid: f.lfs, size: f.size, pointerSize: POINTER_SIZE } } : {}),
    ...(f.lfs && st.settings.xet ? { xetHash: f.xetHash } : {}),
    ...(expand ? { lastCommit: lastCommit(expand.repo, expand.at, f) } : {}),
    ...(st.faults.treeOverride?.[f.path] ?? {}),
  };
}

function directory(path: string): Record<string, unknown> {
  return { type: 'directory', oid: createHash('sha1').update(path).digest('hex'), size: 0, path };
}

/** The paths asked for, from a JSON body (as @huggingface/hub sends it) or a form (as huggingface_hub does). */
function pathsAsked(req: IncomingMessage, body: string): { paths: string[]; expand: boolean } {
  if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body);
    return { paths: form.getAll('paths'), expand: /^(true|1)$/i.test(form.get('expand') ?? '') };
  }
  const j = JSON.parse(body) as { paths?: string[]; expand?: boolean };
  return { paths: j.paths ?? [], expand: j.expand === true };
}

async function pathsInfo(st: EmulatorState, req: IncomingMessage, res: ServerResponse, view: RepoView): Promise<void> {
  const body = await readBody(req);
  let asked: { paths: string[]; expand: boolean };
  try {
    asked = pathsAsked(req, body);
  } catch {
    return hubError(res, 400, 'BadRequest', 'Invalid JSON body');
  }
  const files = view.at.files;
  const out = asked.paths.flatMap((p) => {
    const f = files.find((x) => x.path === p);
    if (f) return [entry(st, f, asked.expand ? view : undefined)];
    if (files.some((x) => x.path.startsWith(p + '/'))) return [directory(p)];
    return [];
  });
  json(res, 200, out, { 'X-Repo-Commit': view.at.id });
}

/** The entries under `sub`: directories where first seen, alongside files, as the Hub lists them. */
function treeItems(st: EmulatorState, view: RepoView, sub: string, recursive: boolean, expand: boolean): Record<string, unknown>[] {
  const prefix = sub === '' ? '' : sub + '/';
  const items: Record<string, unknown>[] = [];
  const dirs = new Set<string>();
  for (const f of view.at.files) {
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
    if (recursive || parts.length === 1) items.push(entry(st, f, expand ? view : undefined));
  }
  return items;
}

/** One page of the tree, the next page named in `Link`, and the tree faults. */
function tree(st: EmulatorState, res: ServerResponse, url: URL, view: RepoView, rev: string, sub: string): void {
  if (sub !== '' && !view.at.files.some((f) => f.path.startsWith(sub + '/'))) {
    // the repo and the revision exist: the Hub names the commit it looked in
    return hubError(res, 404, 'EntryNotFound', `${sub} does not exist on "${rev}"`, { 'X-Repo-Commit': view.at.id });
  }
  const expand = url.searchParams.get('expand') === 'true';
  const items = treeItems(st, view, sub, url.searchParams.get('recursive') === 'true', expand);
  const cursor = Number(url.searchParams.get('cursor') ?? '0');
  const pageItems = items.slice(cursor, cursor + st.pageSize);
  const headers: Record<string, string> = { 'X-Repo-Commit': view.at.id };
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
