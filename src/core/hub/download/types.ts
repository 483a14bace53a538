/** What a download is: its plan, its options, its progress and result, its errors. */
import type { HubConnection } from '../model';

export type DownloadKind = 'resume' | 'hf' | 'logs';

export interface DownloadItem {
  /** path in the repo */
  path: string;
  /** path under the destination, '/'-separated */
  target: string;
  size: number;
  oid: string;
  lfsSha256?: string;
}

export interface DownloadPlan {
  repo: string;
  /** the commit every file is fetched at */
  commit: string;
  kind: DownloadKind;
  iteration: number | null;
  dest: string;
  items: DownloadItem[];
  /** written last, only after every item is verified */
  latestFile?: { target: string; value: number };
}

export const STATE_DIR = '.rlrb-download';
export const DEST_LATEST = 'latest_checkpointed_iteration.txt';

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadProgress {
  bytesDone: number;
  bytesTotal: number;
  /** bytes a second over the last few seconds */
  rate: number;
  etaSeconds: number | null;
  filesDone: number;
  filesTotal: number;
  current: string[];
  /** connections open now (range requests under way) */
  connections: number;
  /** a line for logs: a file finished, a retry, a skip */
  event?: string;
}

export interface DownloadOptions extends HubConnection {
  /** connections to start with (default 2); the pool doubles them while the rate grows, then adds one, up to `maxConnections` */
  concurrency?: number;
  /** the most connections at once, over all files (default 16, at most 64) */
  maxConnections?: number;
  /** files are fetched in ranges of this many bytes (default 16 MB), several at once */
  rangeBytes?: number;
  /** how often the pool judges its rate to add or give back a connection (ms, default 500) */
  poolWindowMs?: number;
  /**
   * The folder the download's manifest lives in (which ranges are written, which files were
   * verified), one subfolder per destination: the extension's global storage, the CLI's
   * `$XDG_STATE_HOME/rlrb`. Without it, the manifest stays in the destination's
   * `.rlrb-download/` with the partials and is removed with them.
   */
  stateDir?: string;
  onProgress?: (p: DownloadProgress) => void;
  /** attempts per file for dropped links, 5xx and 429 */
  retries?: number;
  /** first backoff, doubled each time (ms) */
  backoffMs?: number;
  /** what to do when the destination names a different iteration as latest */
  latestConflict?: 'overwrite' | 'fail';
  /**
   * Leave the destination's latest file as it is (neither checked nor written): for
   * fetching an older checkpoint to evaluate without changing what the launcher resumes from.
   */
  keepLatest?: boolean;
  /**
   * run after every file is in place, before the latest file is written: resolves false to leave it
   * unwritten (the download still succeeds), throws to fail the download without it
   */
  beforeLatest?: (dest: string, iteration: number) => Promise<boolean>;
  /**
   * A partial is flushed to disk (fdatasync, in the background) each time this many more
   * bytes are written (default 32 MB), so that the disk writes while the network reads:
   * the fsync before a file's rename then finds little left to write, instead of a whole
   * iteration's bytes at the end.
   */
  flushEveryBytes?: number;
  /**
   * Bytes written ahead of the files' hashed prefixes (ranges finished before the ones before
   * them) kept in memory, over all the files downloading at once, to be hashed without reading
   * them back (default 8 MB; beyond it they are read back from the page cache).
   */
  holdBytes?: number;
  /**
   * A transfer that delivers no byte for this long (ms, default 30000) is dropped and
   * resumed from the bytes on disk on a new connection at once; once the server has answered
   * (headers or bytes), 10000 or this, whichever is shorter.
   */
  stallTimeoutMs?: number;
  /**
   * A range's first request waits this long for the server's answer (ms, default 15000, or
   * `stallTimeoutMs` if shorter) before it is dropped and made again at once; the request made
   * again waits `stallTimeoutMs`.
   */
  firstAnswerStallMs?: number;
}

export interface DownloadResult {
  files: number;
  bytesFetched: number;
  /** bytes hashed by reading them back from a partial rather than as they arrived (held ranges are hashed from memory) */
  bytesReadBack: number;
  skipped: number;
  dest: string;
  latestWritten: boolean;
}

/** A file still to fetch, and where it lands. */
export interface DownloadJob {
  it: DownloadItem;
  abs: string;
}
