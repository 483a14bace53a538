/** One download per destination folder at a time. */
import { open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DownloadError } from './types';

const LOCK = 'lock.json';
const STALE_MS = 60_000;

/** Takes the destination's lock; resolves with its release. */
export async function takeLock(stateDir: string): Promise<() => Promise<void>> {
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
