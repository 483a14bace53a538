/**
 * The downloader: every file cut into ranges fetched over one adaptive pool of connections
 * (several per file, so that a CDN's per-connection cap does not cap the download), each
 * range written in place into the file's partial with bounded memory, resumable across
 * cancellation, crashes and restarts (the manifest keeps what each range has written),
 * hashed in order as the finished prefix grows and verified against its LFS sha256 (git
 * blob sha1 for small files) before it is moved into place atomically. The latest file of
 * a resume download is written last, once every file is verified. A verified download
 * leaves exactly the launcher's layout in the destination.
 *
 * The steps live in download/: the manifest and where it lives (`manifest.ts`, `state.ts`),
 * a file's partial and hash (`fileJob.ts`), one range's fetch (`fetchFile.ts`, `source.ts`),
 * the ranges over the pool (`scheduler.ts`, `adaptive.ts`), the finish step (fsync,
 * rename, latest), a progress meter, the lock.
 */
import { mkdir, open, readdir, readFile, rm, rmdir, stat, statfs } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { HubError } from './errors';
import type { RunListing } from './model';
import type { HubFile } from './treeEntry';
import { iterDirName, LATEST_FILE, parseLatest } from './model';
import type { DownloadItem, DownloadJob, DownloadKind, DownloadOptions, DownloadPlan, DownloadResult } from './download/types';
import { DEST_LATEST, DownloadError, STATE_DIR } from './download/types';
import { expectedDigest, fileSize, hashFile, newHasher } from './download/digest';
import { partialPath, refuseSymlinks, safeTarget } from './download/paths';
import { isSha1, isSha256, shown } from './treeEntry';
import { ProgressMeter } from './download/progress';
import { Manifest } from './download/manifest';
import { manifestFolder } from './download/state';
import { takeLock } from './download/lock';
import type { FetchContext } from './download/fetchFile';
import { finishFile, writeLatest } from './download/finish';
import { FileJob, HOLD_BYTES, Quota } from './download/fileJob';
import { AdaptiveLimit, eventLoopBusy } from './download/adaptive';
import { FirstFailure, fetchAll } from './download/scheduler';
import { errorMessage } from '../errorMessage';

export type { DownloadItem, DownloadKind, DownloadOptions, DownloadPlan, DownloadProgress, DownloadResult } from './download/types';
export { DEST_LATEST, DownloadError, STATE_DIR } from './download/types';
export { safeTarget } from './download/paths';
export { defaultStateRoot } from './download/state';

/** Ranges of this size by default: big enough that a request's round trip is noise, small enough that a shard has many. */
const DEFAULT_RANGE_BYTES = 16 << 20;
/** Connections a download starts with; the pool doubles them while the rate grows (adaptive.ts). */
const DEFAULT_INITIAL_CONNECTIONS = 1;
const MAX_CONNECTIONS = 64;

/** Background flushes at once, over all files: the others' writes need libuv's pool threads too. */
const MAX_BACKGROUND_SYNCS = 1;

/** The resume, hf or logs preset over a listing. */
export function planDownload(
  listing: RunListing,
  kind: DownloadKind,
  iteration: number | 'latest' | undefined,
  dest: string,
): DownloadPlan {
  if (kind === 'logs') {
    if (listing.logs.length === 0) throw new DownloadError(`${listing.repo} has no files under logs/`);
    refuseIfRefused(listing, 'logs');
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
  refuseIfRefused(listing, it.dir);
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

/** A folder with an entry the listing refused would be downloaded incomplete: refused whole, naming the entry. */
function refuseIfRefused(listing: RunListing, dir: string): void {
  const bad = (listing.refused ?? []).find((r) => r.path.startsWith(`${dir}/`) || r.path.startsWith('tree entry #'));
  if (bad) throw new DownloadError(`refusing to download ${dir}: the Hub listed ${shown(bad.path)}, and ${bad.reason}`, bad.path);
}

function item(f: HubFile, target: string): DownloadItem {
  return { path: f.path, target, size: f.size, oid: f.oid, ...(f.lfsSha256 ? { lfsSha256: f.lfsSha256 } : {}) };
}

/** Hashes name partials and are compared with digests: anything but 40/64 lowercase hex is refused. */
function checkItem(it: DownloadItem): void {
  const refuse = (why: string): never => {
    throw new DownloadError(`refusing ${shown(it.path)}: ${why}`, it.path);
  };
  if (!Number.isSafeInteger(it.size) || it.size < 0) refuse(`its size ${shown(it.size)} is not a whole number of bytes`);
  if (it.lfsSha256 !== undefined && !isSha256(it.lfsSha256)) refuse(`its lfs.oid ${shown(it.lfsSha256)} is not 64 lowercase hex digits`);
  if (it.lfsSha256 === undefined && !isSha1(it.oid)) refuse(`its oid ${shown(it.oid)} is not 40 lowercase hex digits`);
}

/** What the destination's latest file names now, if anything. */
export async function currentLatest(dest: string): Promise<number | null> {
  // untrusted: only a small regular file is read (a huge file, a FIFO or a folder names nothing)
  let fh: FileHandle | undefined;
  try {
    fh = await open(join(dest, DEST_LATEST), constants.O_RDONLY | constants.O_NONBLOCK);
    const st = await fh.stat();
    if (!st.isFile() || st.size > LATEST_MAX_BYTES) return null;
    const buf = Buffer.alloc(LATEST_MAX_BYTES);
    const { bytesRead } = await fh.read(buf, 0, LATEST_MAX_BYTES, 0);
    return parseLatest(buf.toString('utf8', 0, bytesRead));
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** A latest file holds a number and a newline; anything longer is not one. */
const LATEST_MAX_BYTES = 64;

/** Runs a plan; resolves when every file is in place and verified, and the latest file written. */
export async function runDownload(plan: DownloadPlan, o: DownloadOptions): Promise<DownloadResult> {
  const dest = resolve(plan.dest);
  const targets = plan.items.map((it) => ({ it, abs: safeTarget(dest, it.target) }));
  for (const it of plan.items) checkItem(it);
  await mkdir(dest, { recursive: true });
  for (const t of targets) await refuseSymlinks(dest, t.abs);
  if (plan.latestFile && !o.keepLatest && o.latestConflict !== 'overwrite') {
    const cur = await currentLatest(dest);
    if (cur !== null && cur !== plan.latestFile.value) {
      throw new DownloadError(
        `${join(dest, DEST_LATEST)} names iteration ${cur}; downloading ${plan.latestFile.value} ` +
          'would change what the launcher resumes from (allow it to overwrite: --set-latest)',
      );
    }
  }
  const stateDir = join(dest, STATE_DIR);
  for (const t of targets) await refuseSymlinks(dest, partialPath(stateDir, t.it));
  await mkdir(stateDir, { recursive: true });
  const release = await takeLock(stateDir);
  let result: DownloadResult;
  const inner = innerSignal(o.signal);
  try {
    result = await runLocked(plan, { ...o, signal: inner.signal }, dest, stateDir, targets);
    // still under the lock: another download may start in this folder once it is released
    await rm(join(stateDir, 'partial'), { recursive: true, force: true }).catch(() => undefined);
    if (o.stateDir === undefined) await rm(join(stateDir, 'manifest.json'), { force: true }).catch(() => undefined);
  } finally {
    inner.dispose();
    await release();
  }
  await leaveLayout(stateDir);
  return result;
}

/**
 * The signal the download's parts listen to: each connection's attempt adds a listener or
 * two to it, more than Node's default warning threshold with a pool of 16.
 */
function innerSignal(outer: AbortSignal | undefined): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  setMaxListeners(8 * MAX_CONNECTIONS, ac.signal);
  const abort = (): void => ac.abort();
  if (outer?.aborted) ac.abort();
  outer?.addEventListener('abort', abort, { once: true });
  return { signal: ac.signal, dispose: () => outer?.removeEventListener('abort', abort) };
}

/**
 * After a verified download: the destination's `.rlrb-download/` goes (its partials, and
 * the manifest when it lived there, went before the lock was released; now the released
 * lock files). Anything another process put there meanwhile (its lock) stays, and so does
 * the folder then.
 */
async function leaveLayout(stateDir: string): Promise<void> {
  await removeReleasedLocks(stateDir);
  await rmdir(stateDir).catch(() => undefined);
}

/** The released lock generations (tombstones) and their temporary files. */
async function removeReleasedLocks(stateDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(stateDir);
  } catch {
    return;
  }
  for (const n of names) {
    if (!/^lock\.(\d{1,15})\.json$/.test(n) && n !== 'lock.json') continue;
    const p = join(stateDir, n);
    try {
      const rec = JSON.parse(await readFile(p, 'utf8')) as { released?: unknown };
      if (rec.released !== undefined) await rm(p, { force: true });
    } catch {
      // being written by another process, or gone: left as it is
    }
  }
}

async function runLocked(
  plan: DownloadPlan,
  o: DownloadOptions,
  dest: string,
  stateDir: string,
  targets: DownloadJob[],
): Promise<DownloadResult> {
  const verified = await Manifest.load(manifestFolder(dest, o.stateDir), dest);
  const meter = new ProgressMeter(
    plan.items.reduce((s, i) => s + i.size, 0),
    plan.items.length,
    o.onProgress,
  );
  const todo = await skipComplete(targets, verified, meter);
  const rangeBytes = Math.max(1, Math.floor(o.rangeBytes ?? DEFAULT_RANGE_BYTES));
  const hold = new Quota(o.holdBytes ?? HOLD_BYTES);
  const jobs = todo.map((t) => new FileJob(t.it, t.abs, partialPath(stateDir, t.it), verified, rangeBytes, hold));
  let kept = 0;
  for (const j of jobs) kept += await j.prepare();
  await verified.save();
  await checkSpace(dest, todo, kept);
  meter.kept(kept);
  meter.emit(undefined, true);

  const max = Math.max(1, Math.min(o.maxConnections ?? 16, MAX_CONNECTIONS));
  const limit = new AdaptiveLimit({
    initial: Math.min(o.concurrency ?? DEFAULT_INITIAL_CONNECTIONS, max),
    max,
    windowMs: o.poolWindowMs ?? 500,
    onBackoff: (line) => meter.emit(line),
    busy: eventLoopBusy(),
  });
  meter.connections = () => limit.inUse;
  const ctx: FetchContext = {
    repo: plan.repo,
    commit: plan.commit,
    o,
    meter,
    syncs: new Quota(MAX_BACKGROUND_SYNCS),
    moved: (n) => limit.moved(n),
    waited: (ms) => limit.waited(ms),
    flowed: (ms, n) => limit.flowed(ms, n),
  };
  const failure = new FirstFailure();
  // A verified file is made durable (fsync) and renamed into place in the background
  // while its worker fetches the next one; the latest file waits for all of them.
  const finishing: Promise<void>[] = [];
  const finish = async (job: FileJob): Promise<void> => {
    const it = job.it;
    try {
      await finishFile(it, job.part, job.abs, verified);
      meter.fileDone(`${it.target}: verified (${job.ranges.length} range${job.ranges.length === 1 ? '' : 's'})`);
    } catch (e) {
      failure.set(new DownloadError(`${it.path}: cannot put the verified file in place: ${errorMessage(e)}`, it.path, e));
    } finally {
      meter.stop(it.target);
    }
  };
  try {
    await fetchAll({
      ctx,
      jobs,
      limit,
      failure,
      verified: (job) => finishing.push(finish(job)),
      save: (force) => verified.save(force),
      maxWorkers: max,
    });
  } finally {
    limit.stop();
  }
  await Promise.all(finishing);
  if (failure.failed) {
    meter.emit(undefined, true);
    const f = failure.value;
    if (o.signal?.aborted || (f instanceof HubError && f.kind === 'cancelled')) throw new HubError('cancelled', 'cancelled');
    throw f instanceof DownloadError ? f : new DownloadError(errorMessage(f));
  }
  let latestWritten = false;
  if (plan.latestFile && !o.keepLatest && (o.beforeLatest === undefined || (await o.beforeLatest(dest, plan.latestFile.value)))) {
    const latest = safeTarget(dest, plan.latestFile.target);
    await refuseSymlinks(dest, latest + '.tmp');
    await refuseSymlinks(dest, latest);
    await writeLatest(latest, plan.latestFile.value, new Set(targets.map((t) => dirname(t.abs))));
    latestWritten = true;
  }
  meter.emit('done', true);
  const bytesReadBack = jobs.reduce((sum, j) => sum + j.readBack, 0);
  return { files: plan.items.length, bytesFetched: meter.bytesFetched, bytesReadBack, skipped: meter.skipped, dest, latestWritten };
}

/** The files still to fetch: those already complete and verified (by record or by hashing them) are skipped. */
async function skipComplete(targets: DownloadJob[], verified: Manifest, meter: ProgressMeter): Promise<DownloadJob[]> {
  const todo: DownloadJob[] = [];
  for (const t of targets) {
    const size = await fileSize(t.abs);
    if (size === t.it.size) {
      const st = await stat(t.abs);
      if (verified.matches(t.it, size, st.mtimeMs)) {
        meter.skip(t.it, 'already complete');
        continue;
      }
      // there but not known: verify it
      const h = newHasher(t.it);
      await hashFile(t.abs, h);
      if (h.digest('hex') === expectedDigest(t.it).hex) {
        verified.record(t.it, size, st.mtimeMs);
        meter.skip(t.it, 'already complete (verified)');
        continue;
      }
    }
    todo.push(t);
  }
  return todo;
}

/** Checks there is room for what is still missing (`kept`: bytes already written in partials). */
async function checkSpace(dest: string, todo: DownloadJob[], kept: number): Promise<void> {
  const needed = todo.reduce((s, t) => s + t.it.size, 0) - kept;
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
