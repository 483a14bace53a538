/**
 * docs/format.md section 9 at a resume download's two ends: before the first shard byte, the
 * iteration on the Hub is checked and an incomplete one refused, naming what is missing (or, when
 * the user allows it, fetched as it is and never named by the latest file); after the last byte,
 * the folder on disk is checked the same way before the latest file is written. "Cannot tell"
 * (an older checkpoint, another writer) warns and does not block, except that a `.metadata` naming
 * a callable or class no checkpoint writer uses is fetched but never named by the latest file: the
 * launcher `pickle.load`s the `.metadata` of the iteration that file names.
 */
import { join } from 'node:path';
import type { HubConnection, RunListing } from '../hub/model';
import type { DownloadPlan } from '../hub/download/types';
import { DEST_LATEST, DownloadError } from '../hub/download/types';
import { checkResumeIteration } from './checkHub';
import { checkResumeFolder } from './checkFolder';
import { resumeProblems } from './describe';
import { iterKey } from './verdict';
import type { ResumeCheck } from './types';

export interface GateResult {
  /** the plan to run: without its latest file when an incomplete checkpoint is fetched anyway */
  plan: DownloadPlan;
  warnings: string[];
  /** the latest file is not written because `.metadata` names this (`module.name`), which loading it may call */
  unsafe?: string;
}

/** The one line that says why the latest file is withheld from an iteration and how to resume from it anyway. */
export function unsafeWarning(where: string, unsafe: string, iteration: number): string {
  return (
    `${where}/.metadata names ${unsafe}, which no checkpoint writer uses and pickle.load would call: ` +
    `${DEST_LATEST} is not written; if you trust it, write ${iteration} into that file yourself`
  );
}

const cannotTell = (where: string, r: ResumeCheck): string => `cannot tell whether ${where} is complete: ${r.reason ?? 'no reason'}`;

/** Checks a resume plan's iteration on the Hub; throws a DownloadError when it is incomplete and `allowIncomplete` is not set. */
export async function gateResumeDownload(
  listing: RunListing,
  plan: DownloadPlan,
  c: HubConnection,
  allowIncomplete: boolean,
): Promise<GateResult> {
  if (plan.kind !== 'resume' || plan.iteration === null) return { plan, warnings: [] };
  const it = listing.resume.find((i) => i.iteration === plan.iteration);
  if (!it) return { plan, warnings: [] };
  const r = await checkResumeIteration(listing, it, c);
  if (r.complete === true) return { plan, warnings: [] };
  if (r.complete === null && r.unsafe !== undefined) {
    const { latestFile: _withheld, ...rest } = plan;
    return { plan: rest, warnings: [unsafeWarning(it.dir, r.unsafe, plan.iteration)], unsafe: r.unsafe };
  }
  if (r.complete === null) return { plan, warnings: [cannotTell(it.dir, r)] };
  const what = `${it.dir} is incomplete on the Hub: ${resumeProblems(r)}`;
  if (!allowIncomplete) throw new DownloadError(`refusing to download it: ${what} (fetch what is there anyway: --allow-incomplete)`);
  const { latestFile: _dropped, ...rest } = plan;
  return { plan: rest, warnings: [`${what}; fetching what is there, and the latest file is left as it is`] };
}

export interface BeforeLatest {
  /** false: leave the latest file unwritten (the `.metadata` on disk is unsafe to load) */
  write: boolean;
  warning?: string;
  /** what makes `.metadata` unsafe to load (`module.name`), when `write` is false */
  unsafe?: string;
}

/**
 * The check after the download, before the latest file: throws when the folder is incomplete,
 * warns when it cannot tell, and withholds the latest file when `.metadata` is unsafe to load.
 */
export async function checkBeforeLatest(dest: string, iteration: number): Promise<BeforeLatest> {
  const dir = join(dest, iterKey(iteration));
  const r = await checkResumeFolder(dir);
  if (r.complete === false)
    throw new DownloadError(`${dir} is incomplete after the download (${resumeProblems(r)}); the latest file is not written`);
  if (r.complete === null && r.unsafe !== undefined) {
    return { write: false, warning: unsafeWarning(dir, r.unsafe, iteration), unsafe: r.unsafe };
  }
  return r.complete === null ? { write: true, warning: cannotTell(dir, r) } : { write: true };
}
