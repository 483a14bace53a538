import type { DatasetStore } from './datasetCommit';
/** The emulator's public shapes: what a test sets (options, faults, settings) and reads (files, requests). */
export interface EmulatorFile {
  path: string;
  abs: string;
  size: number;
  /** git blob sha1 */
  oid: string;
  /** sha256 when stored with LFS */
  lfs: string | undefined;
  /** the Xet content hash of an LFS file (here derived from its sha256) */
  xetHash: string | undefined;
}

export interface Faults {
  /** cut the connection after this many body bytes (or one short of the body's end), for the next `dropCount` file bodies */
  dropAfterBytes?: number;
  dropCount?: number;
  /** answer the next N file requests with 500/502/503 */
  serverErrors?: number;
  /** the status `serverErrors` answer with (default: 503, 502 and 500 in turn) */
  serverErrorStatus?: number;
  /** answer the next `count` /api/ requests with `status` (the Hub failing, not the link) */
  apiErrors?: { count: number; status: number };
  /** the next `count` /api/ requests get nothing, not even headers, or (`afterHeaders`) their headers and one byte; the connection stays open */
  apiSilent?: { count: number; afterHeaders: boolean };
  /**
   * answer the next N requests (any route) with 429: `Retry-After` when `retryAfter` is set,
   * the IETF `RateLimit: "resolvers";r=0;t=N` header when `reset` is
   */
  rateLimit?: { count: number; retryAfter?: number; reset?: number };
  /** flip the first byte of the next N file bodies (a one-byte probe counts) */
  corrupt?: number;
  /**
   * `dropAfterBytes` and `corrupt` skip bodies shorter than this (default 1: none skipped), for a test
   * that means a cut in the middle of a long body rather than the first request of a file
   */
  minBodyBytes?: number;
  /** throttle file bodies to this many bytes a second */
  trickleBytesPerSecond?: number;
  /**
   * cap each TCP connection at this many bytes a second over all the file bodies it carries
   * (a CDN's per-connection limit: more connections get more bytes, one connection never more)
   */
  connectionBytesPerSecond?: number;
  /** answer the next `count` ranged file requests (not the one-byte probes) with 429 and `Retry-After` */
  rangeRateLimit?: { count: number; retryAfter?: number };
  /** apply file faults only to paths containing this */
  pathContains?: string;
  /** send this many body bytes, then nothing more (the connection stays open), for the next `count` file bodies */
  stall?: { afterBytes: number; count: number };
  /**
   * accept the next `count` file requests of more than one byte, plain GETs of the whole file or
   * (`ranged`) range requests, and never answer them, not even the headers (the connection stays
   * open until the client gives up)
   */
  noHeaders?: { count: number; ranged: boolean };
  /** answer the next N ranged file requests with 200 and the whole file, as CDNs sometimes do */
  ignoreRange?: number;
  /** answer the next N ranged file requests (from a byte > 0) with 206 for a range that starts one byte early */
  wrongContentRange?: number;
  /** answer the next N ranged file requests (of more than one byte) with the right Content-Range and one byte more than it (Content-Length saying so) */
  rangeExtraByte?: number;
  /** answer the next N ranged file requests (of more than one byte) gzip'd: Content-Encoding gzip, the range of the gzip'd file under the right Content-Range */
  gzipRange?: number;
  /** by repo path: serve the bytes of this local file instead (the tree still names the real file's size and hashes) */
  substitute?: Record<string, string>;
  /** the next N redirects to the second origin (bridge or CDN) carry a URL that has already expired */
  expiredRedirects?: number;
  /** the next N resolve requests answer 400 with the Authorization header they carried in the message */
  echoAuthorization?: number;
  /** fields merged into the tree entry of a path (any JSON, to play a hostile Hub) */
  treeOverride?: Record<string, Record<string, unknown>>;
  /** pad every tree page with this many spaces */
  treePadBytes?: number;
  /** tree pages name themselves as the next page */
  treeLinkLoop?: boolean;
  /** tree pages always name a next page, empty ones past the end */
  treeEndless?: boolean;
}

export interface EmulatorSettings {
  /** the Hub is Xet-backed (see above) */
  xet: boolean;
  /** how long a signed URL to the second origin (bridge or CDN) stays valid */
  bridgeTtlSeconds: number;
}

export interface SeenRequest {
  origin: 'hub' | 'cdn';
  /** the Host header: the Hub's host name differs from the CDN's, as huggingface.co's does */
  host: string | undefined;
  method: string;
  url: string;
  authorization: string | undefined;
  range: string | undefined;
  status: number;
  /** file body bytes written (0 for other routes) */
  bytes: number;
  /** when the request came and when its response ended (performance.now(), ms) */
  startMs: number;
  endMs: number;
}

/** File bodies being sent right now, and the most at once since the last reset. */
export interface InFlight {
  now: number;
  peak: number;
}

export interface EmulatorOptions {
  /** repo id -> folder */
  repos: Record<string, string>;
  /** when set, every Hub route needs `Authorization: Bearer <token>` */
  requiredToken?: string;
  /** tokens that /api/whoami-v2 accepts (the required one included) */
  validTokens?: string[];
  /** tree page size (the Hub uses 1000 for recursive listings; tests use less) */
  pageSize?: number;
  port?: number;
  cdnPort?: number;
  /**
   * the host name the CDN is reached by (default `localhost`: another name than the Hub's 127.0.0.1, as
   * on huggingface.co); a test that times new connections can name 127.0.0.1 to leave name lookups out
   */
  cdnHost?: string;
  /** repos that are private: without a valid token they answer 401 */
  privateRepos?: string[];
  /** default: Xet mode on, bridge URLs valid for an hour */
  settings?: Partial<EmulatorSettings>;
  /** paths stored with LFS whatever their size (as a repo's .gitattributes can say) */
  lfsPaths?: RegExp;
}

export interface HubEmulator {
  url: string;
  cdnUrl: string;
  faults: Faults;
  /** may be changed while it runs */
  settings: EmulatorSettings;
  requests: SeenRequest[];
  /** file responses (either origin) open at once; `peak` may be reset to 0 by a test */
  inFlight: InFlight;
  files(repo: string): EmulatorFile[];
  /** the head commit of main: what model info's `sha`, `revision/main` and `X-Repo-Commit` name */
  commit(repo: string): string;
  /** main's history, newest first: each rescan that finds a change adds a commit whose parent is the previous head */
  commits(repo: string): EmulatorCommit[];
  /** Re-reads a repo's folder (after files changed on disk); a change makes a new commit. */
  /** dataset repos created and committed to through the write routes (datasetCommit.ts) */
  datasets: DatasetStore;
  rescan(repo: string): void;
  close(): Promise<void>;
}

/** One commit of a repo's main branch. */
export interface EmulatorCommit {
  id: string;
  /** undefined for the first */
  parent: string | undefined;
  title: string;
  /** ISO 8601 */
  date: string;
  /** the files as they were at this commit */
  files: EmulatorFile[];
}
