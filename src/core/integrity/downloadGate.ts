/**
 * docs/format.md section 9 at a resume download's two ends: before the first shard byte, the
 * iteration on the Hub is checked and an incomplete one refused, naming what is missing (or, when
 * the user allows it, fetched as it is and never named by the latest file); after the last byte,
 * the folder on disk is checked the same way before the latest file is written. "Cannot tell"
 * (an older checkpoint, another writer) warns and does not block.
 */
import { join } from 'node:path';
import type { HubConnection, RunListing } from '../hub/model';
import type { DownloadPlan } from '../hub/download/types';
import { DownloadError } from '../hub/download/types';
import { checkResumeIteration } from './checkHub';
import { checkResumeFolder } from './checkFolder';
import { resumeProblems } from './describe';
import { iterKey } from './verdict';

export interface GateResult {
  /** the plan to run: without its latest file when an incomplete checkpoint is fetched anyway */
  plan: DownloadPlan;
  warnings: string[];
}

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
  if (r.complete === null) return { plan, warnings: [`cannot tell whether ${it.dir} is complete: ${r.reason ?? 'no reason'}`] };
  const what = `${it.dir} is incomplete on the Hub: ${resumeProblems(r)}`;
  if (!allowIncomplete) throw new DownloadError(`refusing to download it: ${what} (fetch what is there anyway: --allow-incomplete)`);
  const { latestFile: _dropped, ...rest } = plan;
  return { plan: rest, warnings: [`${what}; fetching what is there, and the latest file is left as it is`] };
}

/**
 * The check after the download, before the latest file: throws when the folder is incomplete,
 * returns a warning when it cannot tell.
 */
export async function checkBeforeLatest(dest: string, iteration: number): Promise<string | undefined> {
  const dir = join(dest, iterKey(iteration));
  const r = await checkResumeFolder(dir);
  if (r.complete === false)
    throw new DownloadError(`${dir} is incomplete after the download (${resumeProblems(r)}); the latest file is not written`);
  return r.complete === null ? `cannot tell whether ${dir} is complete: ${r.reason ?? 'no reason'}` : undefined;
}
