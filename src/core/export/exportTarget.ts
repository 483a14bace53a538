/** Whether an export's target file is one of the run's own logs (writing it would destroy what is being read). */
import { stat } from 'node:fs/promises';

/** The log among `logs` that `target` is (the same file: one device and inode, so a link or another spelling counts), else undefined. */
export async function targetIsLog(target: string, logs: readonly (string | undefined)[]): Promise<string | undefined> {
  const t = await stat(target).catch(() => undefined);
  if (!t) return undefined;
  for (const log of logs) {
    if (log === undefined) continue;
    const l = await stat(log).catch(() => undefined);
    if (l && l.dev === t.dev && l.ino === t.ino) return log;
  }
  return undefined;
}
