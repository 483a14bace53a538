/**
 * One download per destination folder at a time.
 *
 * The lock is a sequence of generations, `lock.<g>.json`, each created once by an
 * exclusive create (a hard link of a private file, or `wx`) and never rewritten by anyone but its holder. The highest
 * generation is the lock: to take it over when its holder is gone, a process creates
 * generation g+1, which only one process can do; the others get EEXIST and look again.
 * A holder removes the generations below its own, and its release leaves a tombstone
 * (so generations only grow, and a slow process that re-creates a removed lower one sees
 * the higher one afterwards and backs off). No lock file is ever deleted on a judgement
 * of "stale" that another process could be acting on at the same time.
 *
 * A holder is gone when it released, when its PID is dead on this host, when that PID now
 * belongs to a process started after the lock was taken (Linux: /proc/<pid>/stat), or,
 * for another host, when its heartbeat (the lock's mtime) is older than a minute.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DownloadError } from './types';
import { errorCode } from '../../errorMessage';

const LEGACY_LOCK = 'lock.json';
const LOCK_RE = /^lock\.(\d{1,15})\.json$/;
const STALE_MS = 60_000;
/** /proc/stat's boot time has a one-second grain; a PID's start is compared with this slack. */
const START_SLACK_MS = 2000;

interface Holder {
  pid?: unknown;
  host?: unknown;
  started?: unknown;
  released?: unknown;
}

const lockName = (g: number): string => `lock.${g}.json`;

async function generations(stateDir: string): Promise<number[]> {
  const out: number[] = [];
  let names: string[];
  try {
    names = await readdir(stateDir);
  } catch (e) {
    if (errorCode(e) !== 'ENOENT') throw e;
    // the download that held it finished and tidied the folder away meanwhile
    await mkdir(stateDir, { recursive: true });
    names = await readdir(stateDir);
  }
  for (const f of names) {
    const m = LOCK_RE.exec(f);
    if (m) out.push(Number(m[1]));
  }
  return out.sort((a, b) => b - a);
}

/** Takes the destination's lock; resolves with its release. */
export async function takeLock(stateDir: string): Promise<() => Promise<void>> {
  await refuseIfHeld(join(stateDir, LEGACY_LOCK));
  for (let attempt = 0; attempt < 8; attempt++) {
    const top = (await generations(stateDir))[0];
    if (top !== undefined) await refuseIfHeld(join(stateDir, lockName(top)));
    const mine = (top ?? -1) + 1;
    const path = join(stateDir, lockName(mine));
    const me = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
    if (!(await createExclusive(path, JSON.stringify(me)))) continue; // another process took this generation: look again
    const after = await generations(stateDir);
    if (after[0] !== mine) {
      // we re-created a generation a later holder had removed: that holder is the lock
      await rm(path, { force: true });
      continue;
    }
    for (const g of after.slice(1)) await rm(join(stateDir, lockName(g)), { force: true });
    await rm(join(stateDir, LEGACY_LOCK), { force: true });
    await removeDeadTmps(stateDir);
    return holdLock(path, me);
  }
  throw new DownloadError('cannot take the download lock: other downloads keep taking it');
}

/** Keeps the heartbeat (the lock's mtime, for other hosts) until the release, which leaves a tombstone. */
function holdLock(path: string, me: object): () => Promise<void> {
  const beat = setInterval(() => {
    const now = new Date();
    void utimes(path, now, now).catch(() => undefined);
  }, STALE_MS / 4);
  beat.unref();
  return async () => {
    clearInterval(beat);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify({ ...me, released: new Date().toISOString() }));
      await rename(tmp, path);
    } catch (e) {
      // a full disk: the lock stays unreleased (its dead PID frees it), no private file is left
      await rm(tmp, { force: true });
      throw e;
    }
  };
}

const TMP_RE = /^lock\.\d{1,15}\.json\.(\d{1,10})(?:\.[0-9a-f]+)?\.tmp$/;

/**
 * Removes the lock's private files (`lock.<g>.json.<pid>[.<hex>].tmp`) of processes that are gone
 * or of this one: written by a process killed or out of disk space between write and rename. A
 * live process's file may be a lock being taken right now, and is left alone.
 */
async function removeDeadTmps(stateDir: string): Promise<void> {
  for (const f of await readdir(stateDir).catch(() => [] as string[])) {
    const pid = Number(TMP_RE.exec(f)?.[1] ?? NaN);
    if (!Number.isFinite(pid)) continue;
    if (pid !== process.pid && pidAlive(pid)) continue;
    await rm(join(stateDir, f), { force: true });
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errorCode(e) === 'EPERM';
  }
}

/**
 * Creates `path` holding `text` unless it exists; false when it does. The text is written
 * to a private file first and linked into place, so nobody ever reads a lock half written
 * (where hard links are not supported: an exclusive create, then the write).
 */
async function createExclusive(path: string, text: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, text, { flag: 'wx' });
  try {
    await link(tmp, path);
    return true;
  } catch (e) {
    const code = errorCode(e);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS' && code !== 'EXDEV') throw e;
  } finally {
    await rm(tmp, { force: true });
  }
  try {
    await writeFile(path, text, { flag: 'wx' });
    return true;
  } catch (e) {
    if (errorCode(e) === 'EEXIST') return false;
    throw e;
  }
}

/** Throws when the lock file at `path` names a holder that is still at work. */
async function refuseIfHeld(path: string): Promise<void> {
  let text: string;
  let mtimeMs: number;
  try {
    text = await readFile(path, 'utf8');
    mtimeMs = (await stat(path)).mtimeMs;
  } catch {
    return; // gone meanwhile
  }
  let holder: Holder = {};
  try {
    holder = JSON.parse(text) as Holder;
  } catch {
    // being written (or garbage): judged by age
  }
  if (!(await holderAlive(holder, mtimeMs))) return;
  const pid = typeof holder.pid === 'number' ? holder.pid : '?';
  const host = typeof holder.host === 'string' ? JSON.stringify(holder.host) : '?';
  throw new DownloadError(`another download into this folder is running (pid ${pid} on ${host}); wait for it or cancel it`);
}

async function holderAlive(h: Holder, mtimeMs: number): Promise<boolean> {
  if (h.released !== undefined) return false;
  if (typeof h.pid !== 'number' || h.host !== hostname()) return Date.now() - mtimeMs < STALE_MS;
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if (errorCode(err) !== 'EPERM') return false;
  }
  const started = typeof h.started === 'string' ? Date.parse(h.started) : NaN;
  const procStart = await processStartMs(h.pid);
  // the PID now belongs to a process started after the lock was taken: the holder is gone
  if (Number.isFinite(started) && procStart !== undefined && procStart > started + START_SLACK_MS) return false;
  return true;
}

/** When a process started (ms since the epoch), where the OS says (Linux /proc); undefined elsewhere. */
async function processStartMs(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const btime = /^btime (\d+)$/m.exec(await readFile('/proc/stat', 'utf8'));
    // USER_HZ is 100 on every Linux platform Node runs on
    if (!btime || !Number.isFinite(ticks)) return undefined;
    return Number(btime[1]) * 1000 + ticks * 10;
  } catch {
    return undefined;
  }
}
