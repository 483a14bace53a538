/**
 * The downloader: several files at once, each streamed to disk with bounded memory,
 * resumable across cancellation, crashes and restarts (HTTP ranges from the bytes kept
 * on disk), verified against its LFS sha256 (git blob sha1 for small files) before it
 * is moved into place atomically. The latest file of a resume download is written last.
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { downloadFile, fileDownloadInfo } from '@huggingface/hub';
import { makeHubFetch } from './hubFetch';
import { HubError, toHubError } from './errors';
import type { HubConnection, HubFile, RunListing } from './model';
import { iterDirName, LATEST_FILE, parseLatest } from './model';

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
const WRITE_BATCH = 1 << 20;
const FLUSH_EVERY = 32 << 20;
/** Background flushes at once, over all files: the others' writes need libuv's pool threads too. */
const MAX_BACKGROUND_SYNCS = 1;
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

/** The resume, hf or logs preset over a listing. */
export function planDownload(
  listing: RunListing,
  kind: DownloadKind,
  iteration: number | 'latest' | undefined,
  dest: string,
): DownloadPlan {
  if (kind === 'logs') {
    if (listing.logs.length === 0) throw new DownloadError(`${listing.repo} has no files under logs/`);
    return { repo: listing.repo, commit: listing.commit, kind, iteration: null, dest, items: listing.logs.map((f) => item(f, f.path)) };
  }
  let n: number;
  if (iteration === 'latest' || iteration === undefined) {
    if (kind === 'resume') {
      if (listing.latest === null) throw new DownloadError(`${listing.repo} has no readable ${LATEST_FILE}; give an iteration`);
      n = listing.latest;
    } else {
      const last = listing.hf[listing.hf.length - 1];
      if (!last) throw new DownloadError(`${listing.repo} has no iterations under hf/`);
      n = last.iteration;
    }
  } else {
    n = iteration;
  }
  const it = (kind === 'resume' ? listing.resume : listing.hf).find((i) => i.iteration === n);
  if (!it) {
    const have = (kind === 'resume' ? listing.resume : listing.hf).map((i) => i.iteration).join(', ') || 'none';
    throw new DownloadError(`${listing.repo} has no ${kind}/${iterDirName(n)} (iterations: ${have})`);
  }
  const items = it.files.map((f) => item(f, `${iterDirName(n)}/${f.path.slice(it.dir.length + 1)}`));
  return {
    repo: listing.repo,
    commit: listing.commit,
    kind,
    iteration: n,
    dest,
    items,
    ...(kind === 'resume' ? { latestFile: { target: DEST_LATEST, value: n } } : {}),
  };
}

function item(f: HubFile, target: string): DownloadItem {
  return { path: f.path, target, size: f.size, oid: f.oid, ...(f.lfsSha256 ? { lfsSha256: f.lfsSha256 } : {}) };
}

/** Where a target lands, or an error when it would land outside the destination. */
export function safeTarget(dest: string, target: string): string {
  if (target === '' || isAbsolute(target) || /^[A-Za-z]:/.test(target) || target.split(/[\\/]/).some((p) => p === '..' || p === '')) {
    throw new DownloadError(`refusing "${target}": it would land outside ${dest}`, target);
  }
  const abs = resolve(dest, target);
  const rel = relative(resolve(dest), abs);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep)[0] === STATE_DIR)
    throw new DownloadError(`refusing "${target}": it would land outside ${dest}`, target);
  return abs;
}

/** What the destination's latest file names now, if anything. */
export async function currentLatest(dest: string): Promise<number | null> {
  try {
    return parseLatest(await readFile(join(dest, DEST_LATEST), 'utf8'));
  } catch {
    return null;
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
  /** a line for logs: a file finished, a retry, a skip */
  event?: string;
}

export interface DownloadOptions extends HubConnection {
  concurrency?: number;
  onProgress?: (p: DownloadProgress) => void;
  /** attempts per file for dropped links, 5xx and 429 */
  retries?: number;
  /** first backoff, doubled each time (ms) */
  backoffMs?: number;
  /** what to do when the destination names a different iteration as latest */
  latestConflict?: 'overwrite' | 'fail';
  /**
   * A partial is flushed to disk (fdatasync, in the background) each time this many more
   * bytes are written (default 32 MB), so that the disk writes while the network reads:
   * the fsync before a file's rename then finds little left to write, instead of a whole
   * iteration's bytes at the end.
   */
  flushEveryBytes?: number;
}

export interface DownloadResult {
  files: number;
  bytesFetched: number;
  skipped: number;
  dest: string;
  latestWritten: boolean;
}

interface Verified {
  [target: string]: { oid: string; size: number; mtimeMs: number };
}

function expectedDigest(it: DownloadItem): { algo: 'sha256' | 'sha1'; hex: string } {
  return it.lfsSha256 ? { algo: 'sha256', hex: it.lfsSha256 } : { algo: 'sha1', hex: it.oid };
}

function newHasher(it: DownloadItem): Hash {
  const h = createHash(expectedDigest(it).algo);
  if (!it.lfsSha256) h.update(`blob ${it.size}\0`);
  return h;
}

async function hashFile(path: string, h: Hash, end?: number): Promise<void> {
  if (end === 0) return;
  await new Promise<void>((res, rej) => {
    const s = createReadStream(path, { highWaterMark: 1 << 20, ...(end !== undefined ? { end: end - 1 } : {}) });
    s.on('data', (c) => h.update(c));
    s.on('end', () => res());
    s.on('error', rej);
  });
}

async function fileSize(p: string): Promise<number | undefined> {
  try {
    return (await stat(p)).size;
  } catch {
    return undefined;
  }
}

// ---- the lock

const LOCK = 'lock.json';
const STALE_MS = 60_000;

async function takeLock(stateDir: string): Promise<() => Promise<void>> {
  const path = join(stateDir, LOCK);
  const me = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(JSON.stringify(me));
      await fh.close();
      const beat = setInterval(() => {
        void writeFile(path, JSON.stringify(me)).catch(() => undefined);
      }, STALE_MS / 4);
      beat.unref();
      return async () => {
        clearInterval(beat);
        await rm(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // someone holds it: is it alive?
      let holder: { pid?: number; host?: string } = {};
      try {
        holder = JSON.parse(await readFile(path, 'utf8')) as typeof holder;
      } catch {
        /* unreadable: judged by age */
      }
      const st = await stat(path).catch(() => undefined);
      const age = st ? Date.now() - st.mtimeMs : Infinity;
      let alive = age < STALE_MS;
      if (holder.host === hostname() && typeof holder.pid === 'number') {
        try {
          process.kill(holder.pid, 0);
          alive = true;
        } catch (err) {
          alive = (err as NodeJS.ErrnoException).code === 'EPERM';
        }
      }
      if (alive)
        throw new DownloadError(
          `another download into this folder is running (pid ${holder.pid ?? '?'} on ${holder.host ?? '?'}); wait for it or cancel it`,
        );
      await rm(path, { force: true });
    }
  }
  throw new DownloadError('cannot take the download lock');
}

// ---- the download

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((res, rej) => {
    const t = setTimeout(res, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        rej(new HubError('cancelled', 'cancelled'));
      },
      { once: true },
    );
  });

/** Runs a plan; resolves when every file is in place and verified, and the latest file written. */
export async function runDownload(plan: DownloadPlan, o: DownloadOptions): Promise<DownloadResult> {
  const dest = resolve(plan.dest);
  const targets = plan.items.map((it) => ({ it, abs: safeTarget(dest, it.target) }));
  await mkdir(dest, { recursive: true });
  if (plan.latestFile && o.latestConflict !== 'overwrite') {
    const cur = await currentLatest(dest);
    if (cur !== null && cur !== plan.latestFile.value) {
      throw new DownloadError(
        `${join(dest, DEST_LATEST)} names iteration ${cur}; downloading ${plan.latestFile.value} would change what the launcher resumes from (allow it to overwrite: --set-latest)`,
      );
    }
  }
  const stateDir = join(dest, STATE_DIR);
  await mkdir(stateDir, { recursive: true });
  const release = await takeLock(stateDir);
  try {
    return await runLocked(plan, o, dest, stateDir, targets);
  } finally {
    await release();
  }
}

async function runLocked(
  plan: DownloadPlan,
  o: DownloadOptions,
  dest: string,
  stateDir: string,
  targets: { it: DownloadItem; abs: string }[],
): Promise<DownloadResult> {
  const verifiedPath = join(stateDir, 'verified.json');
  let verified: Verified = {};
  try {
    verified = JSON.parse(await readFile(verifiedPath, 'utf8')) as Verified;
  } catch {
    verified = {};
  }
  // one write at a time: workers finish together
  let saving: Promise<void> = Promise.resolve();
  const saveVerified = (): Promise<void> => {
    saving = saving.then(async () => {
      await writeFile(verifiedPath + '.tmp', JSON.stringify(verified));
      await rename(verifiedPath + '.tmp', verifiedPath);
    });
    return saving;
  };

  const bytesTotal = plan.items.reduce((s, i) => s + i.size, 0);
  let bytesDone = 0;
  let bytesFetched = 0;
  let filesDone = 0;
  let skipped = 0;
  const current = new Set<string>();
  const samples: { t: number; b: number }[] = [];
  let lastEmit = 0;
  const emit = (event?: string, force = false): void => {
    const now = Date.now();
    if (!force && !event && now - lastEmit < 200) return;
    lastEmit = now;
    samples.push({ t: now, b: bytesFetched });
    while (samples.length > 2 && now - samples[0]!.t > 5000) samples.shift();
    const first = samples[0]!;
    const rate = now > first.t ? ((bytesFetched - first.b) * 1000) / (now - first.t) : 0;
    o.onProgress?.({
      bytesDone,
      bytesTotal,
      rate,
      etaSeconds: rate > 0 ? (bytesTotal - bytesDone) / rate : null,
      filesDone,
      filesTotal: plan.items.length,
      current: [...current],
      ...(event ? { event } : {}),
    });
  };

  // what is already complete and verified
  const todo: { it: DownloadItem; abs: string }[] = [];
  for (const t of targets) {
    const size = await fileSize(t.abs);
    const rec = verified[t.it.target];
    if (size === t.it.size) {
      const st = await stat(t.abs);
      if (rec && rec.oid === (t.it.lfsSha256 ?? t.it.oid) && rec.size === size && rec.mtimeMs === st.mtimeMs) {
        done(t.it, 'already complete');
        continue;
      }
      // there but not known: verify it
      const h = newHasher(t.it);
      await hashFile(t.abs, h);
      if (h.digest('hex') === expectedDigest(t.it).hex) {
        verified[t.it.target] = { oid: t.it.lfsSha256 ?? t.it.oid, size, mtimeMs: st.mtimeMs };
        done(t.it, 'already complete (verified)');
        continue;
      }
    }
    todo.push(t);
  }
  function done(it: DownloadItem, why: string): void {
    skipped++;
    filesDone++;
    bytesDone += it.size;
    emit(`${it.target}: ${why}`);
  }
  await saveVerified();

  // disk space for what is still missing
  let partialBytes = 0;
  for (const t of todo) partialBytes += Math.min(t.it.size, (await fileSize(partialPath(stateDir, t.it))) ?? 0);
  const needed = todo.reduce((s, t) => s + t.it.size, 0) - partialBytes;
  try {
    const fs = await statfs(dest);
    const free = fs.bavail * fs.bsize;
    if (needed > free)
      throw new DownloadError(
        `not enough disk space in ${dest}: ${(needed / 1e9).toFixed(2)} GB needed, ${(free / 1e9).toFixed(2)} GB free`,
      );
  } catch (e) {
    if (e instanceof DownloadError) throw e;
  }
  bytesDone += partialBytes;
  emit(undefined, true);

  const concurrency = Math.max(1, Math.min(o.concurrency ?? 4, 16));
  let next = 0;
  let failure: unknown;
  // A verified file is made durable (fsync) and renamed into place in the background
  // while its worker fetches the next one; the latest file waits for all of them.
  const finishing: Promise<void>[] = [];
  let backgroundSyncs = 0;
  const finish = async (it: DownloadItem, part: string, abs: string, fetched: number): Promise<void> => {
    try {
      // r+: Windows flushes only a handle opened for writing
      const fh = await open(part, 'r+');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      await mkdir(dirname(abs), { recursive: true });
      await rename(part, abs);
      verified[it.target] = { oid: it.lfsSha256 ?? it.oid, size: it.size, mtimeMs: (await stat(abs)).mtimeMs };
      await saveVerified();
      filesDone++;
      emit(`${it.target}: verified (${fetched} bytes fetched)`);
    } catch (e) {
      failure ??= new DownloadError(`${it.path}: cannot put the verified file in place: ${(e as Error).message}`, it.path, e);
    } finally {
      current.delete(it.target);
    }
  };
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < todo.length) {
      const t = todo[next++]!;
      current.add(t.it.target);
      try {
        const fetched = await fetchOne(t.it);
        finishing.push(finish(t.it, partialPath(stateDir, t.it), t.abs, fetched));
      } catch (e) {
        current.delete(t.it.target);
        failure ??= e;
      }
    }
  };

  /** Fetches the rest of a file into its partial and verifies it; returns the bytes fetched. */
  const fetchOne = async (it: DownloadItem): Promise<number> => {
    const part = partialPath(stateDir, it);
    await mkdir(dirname(part), { recursive: true });
    const retries = o.retries ?? 6;
    let failures = 0;
    let mismatches = 0;
    let fetchedHere = 0;
    for (;;) {
      if (o.signal?.aborted) throw new HubError('cancelled', 'cancelled');
      let have = (await fileSize(part)) ?? 0;
      if (have > it.size) {
        await rm(part, { force: true });
        bytesDone -= Math.min(have, it.size);
        have = 0;
      }
      const hasher = newHasher(it);
      await hashFile(part, hasher, have);
      try {
        if (have < it.size) fetchedHere += await fetchRange(it, part, have, hasher);
      } catch (e) {
        const he =
          e instanceof DownloadError
            ? e
            : toHubError(e, {
                endpoint: o.endpoint,
                repo: plan.repo,
                revision: plan.commit,
                path: it.path,
                token: o.token,
                tokenSource: o.tokenSource,
              });
        if (he instanceof HubError && he.kind === 'cancelled') throw he;
        if (o.signal?.aborted) throw new HubError('cancelled', 'cancelled');
        // ours already name the file
        if (he instanceof DownloadError) throw he;
        if (he instanceof HubError && he.retriable && ++failures <= retries) {
          const wait =
            he.kind === 'rate-limited' && he.retryAfterSeconds !== undefined
              ? he.retryAfterSeconds * 1000
              : (o.backoffMs ?? 500) * 2 ** (failures - 1);
          emit(`${it.target}: ${he.message}; retrying in ${(wait / 1000).toFixed(1)} s (${failures}/${retries})`);
          await sleep(Math.min(wait, 60_000), o.signal);
          continue;
        }
        throw new DownloadError(`${it.path}: ${he.message}${failures > retries ? ` (after ${retries} retries)` : ''}`, it.path, e);
      }
      const got = hasher.digest('hex');
      if (got !== expectedDigest(it).hex) {
        // a wrong byte somewhere: never keep it; start this file again once
        await rm(part, { force: true });
        bytesDone -= it.size;
        if (++mismatches <= 1) {
          emit(`${it.target}: checksum mismatch, fetching it again from the start`);
          continue;
        }
        throw new DownloadError(
          `${it.path}: checksum mismatch twice (expected ${expectedDigest(it).algo} ${expectedDigest(it).hex}, got ${got}); nothing was put in place`,
          it.path,
        );
      }
      return fetchedHere;
    }
  };

  /** Appends bytes [have, size) to `part`, feeding the hasher; returns the bytes fetched. */
  const fetchRange = async (it: DownloadItem, part: string, have: number, hasher: Hash): Promise<number> => {
    const hf = makeHubFetch(o.endpoint, o.signal, o.baseFetch);
    const creds = o.token ? { accessToken: o.token } : {};
    const repo = { type: 'model' as const, name: plan.repo };
    let fetched = 0;
    let blob: Blob | null;
    try {
      const info = await fileDownloadInfo({ repo, path: it.path, revision: plan.commit, hubUrl: o.endpoint, fetch: hf.fetch, ...creds });
      if (!info) throw new HubError('entry-not-found', `${it.path} is no longer in ${plan.repo} at ${plan.commit.slice(0, 8)}`);
      if (info.size !== it.size)
        throw new DownloadError(
          `${it.path}: the Hub now says ${info.size} bytes, the listing said ${it.size}; refresh and try again`,
          it.path,
        );
      blob = await downloadFile({
        repo,
        path: it.path,
        revision: plan.commit,
        hubUrl: o.endpoint,
        fetch: hf.fetch,
        xet: false,
        downloadInfo: { ...info, xet: undefined },
        ...creds,
      });
    } catch (e) {
      throw e instanceof DownloadError || e instanceof HubError
        ? e
        : toHubError(e, { endpoint: o.endpoint, repo: plan.repo, revision: plan.commit, path: it.path, token: o.token, hubFetch: hf });
    }
    if (!blob) throw new HubError('entry-not-found', `${it.path} not found`);
    const fh = await open(part, 'a');
    // one write in flight while the next chunk is hashed; batches of about 1 MB
    let pending: Uint8Array[] = [];
    let pendingLen = 0;
    let inflight: Promise<void> = Promise.resolve();
    let received = 0;
    let unsynced = 0;
    let syncing: Promise<void> | undefined;
    let syncError: Error | undefined;
    const flush = async (): Promise<void> => {
      await inflight;
      if (pendingLen === 0) return;
      const n = pendingLen;
      const bufs = pending;
      pending = [];
      pendingLen = 0;
      inflight = fh.writev(bufs).then(() => {
        fetched += n;
        unsynced += n;
        if (unsynced >= (o.flushEveryBytes ?? FLUSH_EVERY) && syncing === undefined && backgroundSyncs < MAX_BACKGROUND_SYNCS) {
          unsynced = 0;
          backgroundSyncs++;
          // kept: after a failed flush, Linux may report the next fsync as a success
          syncing = fh
            .datasync()
            .catch((e: Error) => {
              syncError ??= e;
            })
            .finally(() => {
              backgroundSyncs--;
              syncing = undefined;
            });
        }
      });
    };
    try {
      const reader: ReadableStreamDefaultReader<Uint8Array> = blob.slice(have, it.size).stream().getReader();
      const onAbort = (): void => {
        void reader.cancel().catch(() => undefined);
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        for (;;) {
          let r: Awaited<ReturnType<typeof reader.read>>;
          try {
            r = await reader.read();
          } catch (e) {
            // the library's stream fails with a bare message; the status, if any, is in hubFetch
            const status = hf.lastStatus();
            const err =
              status !== undefined && status >= 400
                ? Object.assign(new Error(String(e)), { statusCode: status })
                : typeof e === 'string'
                  ? new Error(`connection lost: ${e}`)
                  : e;
            throw toHubError(err, {
              endpoint: o.endpoint,
              repo: plan.repo,
              revision: plan.commit,
              path: it.path,
              token: o.token,
              hubFetch: hf,
            });
          }
          if (r.done) break;
          const chunk = r.value;
          if (have + received + chunk.length > it.size)
            throw new HubError('server', `${it.path}: the server sent more bytes than the file has`);
          received += chunk.length;
          pending.push(chunk);
          pendingLen += chunk.length;
          if (pendingLen >= WRITE_BATCH) await flush();
          hasher.update(chunk);
          // progress counts bytes as they arrive; what is pending is written on any exit
          bytesFetched += chunk.length;
          bytesDone += chunk.length;
          emit();
        }
        await flush();
        await inflight;
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
        // what arrived intact is kept for the next run
        await flush().catch(() => undefined);
        await inflight.catch(() => undefined);
        await syncing;
      }
      if (syncError) throw new DownloadError(`${it.path}: cannot flush ${part} to disk: ${syncError.message}`, it.path, syncError);
      if (o.signal?.aborted) throw new HubError('cancelled', 'cancelled');
      if (have + fetched < it.size) throw new HubError('offline', `the connection closed after ${have + fetched} of ${it.size} bytes`);
    } finally {
      await fh.close();
    }
    return fetched;
  };

  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, todo.length)) }, worker));
  await Promise.all(finishing);
  if (failure !== undefined) {
    emit(undefined, true);
    if (o.signal?.aborted || (failure instanceof HubError && failure.kind === 'cancelled')) throw new HubError('cancelled', 'cancelled');
    throw failure instanceof DownloadError ? failure : new DownloadError(String((failure as Error).message ?? failure));
  }
  let latestWritten = false;
  if (plan.latestFile) {
    // every file is in place, verified and on disk (their directories too): only now may
    // the launcher see this iteration, even after a power cut
    for (const d of new Set(targets.map((t) => dirname(t.abs)))) await syncDir(d);
    const target = safeTarget(dest, plan.latestFile.target);
    const fh = await open(target + '.tmp', 'w');
    try {
      await fh.writeFile(String(plan.latestFile.value));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(target + '.tmp', target);
    await syncDir(dirname(target));
    latestWritten = true;
  }
  emit('done', true);
  return { files: plan.items.length, bytesFetched, skipped, dest, latestWritten };
}

/** fsync of a directory, so that the renames in it survive a power cut (where the OS allows it). */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // some platforms (Windows) cannot open or fsync a directory: the rename is what we have
  }
}

function partialPath(stateDir: string, it: DownloadItem): string {
  return join(stateDir, 'partial', `${it.lfsSha256 ?? it.oid}.part`);
}

/** Completion of an iteration already in a destination, for the tree: bytes verified or partial. */
export async function localCompletion(
  dest: string,
  plan: Pick<DownloadPlan, 'items'>,
): Promise<{ complete: boolean; bytes: number; total: number }> {
  let bytes = 0;
  const total = plan.items.reduce((s, i) => s + i.size, 0);
  let complete = true;
  for (const it of plan.items) {
    const abs = safeTarget(resolve(dest), it.target);
    const size = await fileSize(abs);
    if (size === it.size) {
      bytes += size;
      continue;
    }
    complete = false;
    bytes += Math.min(it.size, (await fileSize(partialPath(join(resolve(dest), STATE_DIR), it))) ?? 0);
  }
  return { complete: complete && plan.items.length > 0, bytes, total };
}
