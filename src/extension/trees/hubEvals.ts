/**
 * The Hub tree's checkpoint evaluations: a repo's `logs/eval_log.jsonl` read and summarised
 * once per listing (keyed by the repo and the listing's commit), not once per node; a
 * newer commit reads it again. A read that fails is one line in the output and no label.
 */
import type { EvalSummary } from '../../core/eval/evalFigures';
import { hubEvalSummary, listedEvalLog } from '../../core/eval/hubEvals';
import type { HubConnection, RunListing } from '../../core/hub/model';
import type { RangeCache } from '../../core/hub/inPlace/rangeCache';
import { errorMessage } from '../../core/errorMessage';

/** The evaluations of a listing's commit (undefined: none, or not readable). */
export type HubEvalsOf = (listing: RunListing) => Promise<EvalSummary | undefined>;

export function hubEvals(
  connection: () => Promise<HubConnection>,
  ranges: RangeCache,
  warn: (line: string) => void,
  read: typeof hubEvalSummary = hubEvalSummary,
): HubEvalsOf {
  const kept = new Map<string, { commit: string; summary: Promise<EvalSummary | undefined> }>();
  return (listing) => {
    if (!listedEvalLog(listing)) return Promise.resolve(undefined);
    const k = kept.get(listing.repo);
    if (k?.commit === listing.commit) return k.summary;
    const summary = connection()
      .then((c) => read(listing, c, ranges))
      .catch((e: unknown) => {
        warn(`${listing.repo}: logs/eval_log.jsonl at ${listing.commit.slice(0, 12)} could not be read: ${errorMessage(e)}`);
        return undefined;
      });
    kept.set(listing.repo, { commit: listing.commit, summary });
    return summary;
  };
}
