/** What every route of the emulator shares: the repos, the faults, the settings and the request log. */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { scan } from './scan';
import type { EmulatorFile, EmulatorOptions, EmulatorSettings, Faults, InFlight, SeenRequest } from './types';

export interface RepoState {
  id: string;
  root: string;
  files: EmulatorFile[];
  commit: string;
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

/** (Re-)reads a repo's folder. */
export function loadRepo(state: EmulatorState, id: string, root: string): void {
  const files = scan(root, state.options.lfsPaths);
  const commit = createHash('sha1')
    .update(files.map((f) => `${f.path}:${f.oid}`).join('\n'))
    .digest('hex');
  state.repos.set(id, { id, root, files, commit });
}
