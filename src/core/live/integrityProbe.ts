/**
 * Section 9's checker as a live run's checkpoint probe: an iteration is complete when its
 * `.metadata` (read without executing it) or its safetensors headers say every byte is there.
 * An iteration whose files are unchanged since it was last checked is not read again, so a poll
 * that saw a change reads only the checkpoints that changed.
 */
import { checkFolder } from '../integrity/checkFolder';
import { checkHfIteration, checkResumeIteration } from '../integrity/checkHub';
import { listRun } from '../hub/model';
import type { HubConnection, IterationInfo, RunListing } from '../hub/model';
import type { CheckpointProbe, CheckpointState } from './checkpoints';

/** What decides an iteration's state on the Hub: its folder, its files' names and sizes, and (for resume) the latest file. */
function signature(it: IterationInfo): string {
  return `${it.dir}|${it.files.map((f) => `${f.path}=${f.size}`).join(',')}`;
}

/**
 * The Hub repo's checkpoints at its current commit (`revision()`), each iteration checked once per
 * content. The connection may be asked anew at each probe (the editor's token and proxy can change).
 */
export function hubIntegrityProbe(
  repo: string,
  revision: () => string,
  connection: HubConnection | (() => Promise<HubConnection>),
): CheckpointProbe {
  const known = new Map<string, boolean | null>();
  const check = async (listing: RunListing, it: IterationInfo, conn: HubConnection): Promise<boolean | null> => {
    const key = signature(it);
    const seen = known.get(key);
    if (seen !== undefined) return seen;
    const r = it.kind === 'resume' ? await checkResumeIteration(listing, it, conn) : await checkHfIteration(listing, it, conn);
    known.set(key, r.complete);
    return r.complete;
  };
  return async () => {
    const conn = typeof connection === 'function' ? await connection() : connection;
    const listing = await listRun(repo, revision(), conn);
    const out: CheckpointState[] = [];
    for (const it of [...listing.resume, ...listing.hf])
      out.push({ kind: it.kind, iteration: it.iteration, complete: await check(listing, it, conn) });
    return out;
  };
}

/** A local run's (or download destination's) checkpoints, checked on disk. */
export function folderIntegrityProbe(root: string): CheckpointProbe {
  return async () => {
    const { report } = await checkFolder(root);
    const states = (kind: 'resume' | 'hf', byKey: Record<string, { complete: boolean | null }>): CheckpointState[] =>
      Object.entries(byKey).map(([key, c]) => ({ kind, iteration: Number(key.slice('iter_'.length)), complete: c.complete }));
    return [...states('resume', report.resume), ...states('hf', report.hf)];
  };
}
