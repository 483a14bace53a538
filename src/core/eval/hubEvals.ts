/**
 * A Hub repo's checkpoint evaluations from its listing (docs/format.md section 8), for the
 * Hub tree: `logs/eval_log.jsonl` at the listing's commit read once through the verified
 * in-place source (its bytes checked against the tree entry's hash, ranges cached), then
 * summarised per checkpoint like `rlrb evals`.
 */
import type { HubConnection, RunListing } from '../hub/model';
import { HubLogSource } from '../hub/inPlace/hubLogSource';
import type { RangeCache } from '../hub/inPlace/rangeCache';
import { EVAL_PATH } from '../hub/inPlace/hubLogs';
import { EvalLog } from './evalLog';
import { evalSummary } from './evalFigures';
import type { EvalOutcome, EvalSummary } from './evalFigures';

/** The listing's evaluation log entry, or undefined when its logs have none at the reference path. */
export function listedEvalLog(listing: RunListing): RunListing['logs'][number] | undefined {
  return listing.logs.find((f) => f.path === EVAL_PATH);
}

/** The repo's evaluations at the listing's commit; undefined when it has no `logs/eval_log.jsonl`. Throws what the read throws. */
export async function hubEvalSummary(listing: RunListing, conn: HubConnection, cache: RangeCache): Promise<EvalSummary | undefined> {
  const episodes = await hubEvalEpisodes(listing, conn, cache);
  return episodes && evalSummary(episodes);
}

/** The repo's eval episodes at the listing's commit (for a verdict against a baseline); undefined without an eval log. */
export async function hubEvalEpisodes(
  listing: RunListing,
  conn: HubConnection,
  cache: RangeCache,
): Promise<readonly EvalOutcome[] | undefined> {
  const f = listedEvalLog(listing);
  if (!f) return undefined;
  const source = new HubLogSource(
    { repo: listing.repo, commit: listing.commit, path: f.path, size: f.size, key: f.lfsSha256 ?? f.oid },
    conn,
    cache,
    true,
  );
  const log = new EvalLog(`hub:${listing.repo}/${f.path}`, {}, { source });
  await log.update(conn.signal);
  return log.episodes;
}
