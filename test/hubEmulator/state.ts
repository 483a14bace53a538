/** What every route of the emulator shares: the repos, the faults, the settings and the request log. */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { scan } from './scan';
import type { EmulatorCommit, EmulatorFile, EmulatorOptions, EmulatorSettings, Faults, InFlight, SeenRequest } from './types';

export interface RepoState {
  id: string;
  root: string;
  /** the files at the head of main */
  files: EmulatorFile[];
  /** the head of main */
  commit: string;
  /** main's history, newest first */
  commits: EmulatorCommit[];
}

export interface EmulatorState {
  options: EmulatorOptions;
  repos: Map<string, RepoState>;
  faults: Faults;
  settings: EmulatorSettings;
  requests: SeenRequest[];
  inFlight: InFlight;
  /** body bytes sent per response, for the request log */
  sentBytes: WeakMap<ServerResponse, number>;
  /** when each connection may send its next byte under `connectionBytesPerSecond` */
  connectionFree: WeakMap<object, number>;
  pageSize: number;
  /** signs CDN and bridge URLs */
  secret: Buffer;
  validTokens: Set<string>;
  privateRepos: Set<string>;
  /** set once both servers listen */
  hubUrl: string;
  cdnUrl: string;
}

export function newState(o: EmulatorOptions): EmulatorState {
  const state: EmulatorState = {
    options: o,
    repos: new Map(),
    faults: {},
    settings: { xet: true, bridgeTtlSeconds: 3600, ...o.settings },
    requests: [],
    inFlight: { now: 0, peak: 0 },
    sentBytes: new WeakMap(),
    connectionFree: new WeakMap(),
    pageSize: o.pageSize ?? 1000,
    secret: randomBytes(16),
    validTokens: new Set([...(o.validTokens ?? []), ...(o.requiredToken ? [o.requiredToken] : [])]),
    privateRepos: new Set(o.privateRepos ?? []),
    hubUrl: '',
    cdnUrl: '',
  };
  for (const [id, root] of Object.entries(o.repos)) loadRepo(state, id, root);
  return state;
}

/** (Re-)reads a repo's folder; when what it holds changed, main gets a new commit on top of the last. */
export function loadRepo(state: EmulatorState, id: string, root: string): void {
  const files = scan(root, state.options.lfsPaths);
  const before = state.repos.get(id);
  const head = before?.commits[0];
  if (head && treeId(head.files) === treeId(files)) {
    before.files = files;
    return;
  }
  const commit = newCommit(files, head);
  state.repos.set(id, { id, root, files, commit: commit.id, commits: [commit, ...(before?.commits ?? [])] });
}

/** What a commit's files hold: their paths and git blob ids. */
function treeId(files: EmulatorFile[]): string {
  return createHash('sha1')
    .update(files.map((f) => `${f.path}:${f.oid}`).join('\n'))
    .digest('hex');
}

/** A commit id that depends on the tree and the parent, as git's does, so a history replays to the same ids. */
function newCommit(files: EmulatorFile[], parent: EmulatorCommit | undefined): EmulatorCommit {
  const tree = treeId(files);
  const id = createHash('sha1')
    .update(`tree ${tree}\n${parent ? `parent ${parent.id}\n` : ''}`)
    .digest('hex');
  const changed = parent ? changedPaths(parent.files, files) : files.length;
  const title = parent ? `Upload ${changed} file${changed === 1 ? '' : 's'}` : 'initial commit';
  return { id, parent: parent?.id, title, date: new Date().toISOString(), files };
}

function changedPaths(before: EmulatorFile[], after: EmulatorFile[]): number {
  const old = new Map(before.map((f) => [f.path, f.oid]));
  const now = new Set(after.map((f) => f.path));
  return after.filter((f) => old.get(f.path) !== f.oid).length + before.filter((f) => !now.has(f.path)).length;
}

/** The commit a revision names: main (or HEAD) is the head; a full commit id names that commit. */
export function commitAt(repo: RepoState, rev: string): EmulatorCommit | undefined {
  if (rev === 'main' || rev === 'HEAD' || rev === 'refs/heads/main') return repo.commits[0];
  return repo.commits.find((c) => c.id === rev);
}
