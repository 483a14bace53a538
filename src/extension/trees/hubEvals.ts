/**
 * The Hub tree's checkpoint evaluations: a repo's `logs/eval_log.jsonl` read once per listing
 * (keyed by the repo and the listing's commit), not once per node; a newer commit reads it
 * again. A read that fails is one line in the output and no label. With a baseline set, each
 * evaluated checkpoint carries the verdict against it (docs/format.md section 8, core's words).
 */
import { compareEvaluations, evalSummary } from '../../core/eval/evalFigures';
import type { EvalOutcome, EvalSummary } from '../../core/eval/evalFigures';
import { hubEvalEpisodes, listedEvalLog } from '../../core/eval/hubEvals';
import { entryWords, verdictWords } from '../../core/eval/verdictWords';
import type { HubConnection, RunListing } from '../../core/hub/model';
import type { RangeCache } from '../../core/hub/inPlace/rangeCache';
import { errorMessage } from '../../core/errorMessage';
import type { BaselineEvals } from '../report/checkpointVerdict';
import type { HubVerdict } from './treeModel';

/** A listing's evaluations, and the verdict against the baseline when one is set and evaluated. */
export interface HubEvals {
  summary: EvalSummary;
  verdict?: HubVerdict;
}

/** The evaluations of a listing's commit (undefined: none, or not readable). */
export type HubEvalsOf = (listing: RunListing) => Promise<HubEvals | undefined>;

/** Per evaluated checkpoint, the verdict against the baseline; at the last common one, the whole verdict (pooled too where it differs). */
export function hubVerdict(episodes: readonly EvalOutcome[], base: BaselineEvals | undefined): HubVerdict | undefined {
  if (!base || base.problem !== undefined || !base.episodes) return undefined;
  const e = compareEvaluations(episodes, base.episodes);
  if (!e?.final) return undefined;
  const last = e.final.iteration;
  const text = verdictWords(e).text;
  const at = new Map(
    e.perIteration.map((p) => [
      p.iteration,
      { conclusion: p.conclusion, words: p.iteration === last ? text : entryWords(p, `at iteration ${p.iteration}`, 'task') },
    ]),
  );
  return { baseline: base.name, at };
}

export function hubEvals(
  connection: () => Promise<HubConnection>,
  ranges: RangeCache,
  warn: (line: string) => void,
  baseline: () => Promise<BaselineEvals | undefined> = () => Promise.resolve(undefined),
  read: typeof hubEvalEpisodes = hubEvalEpisodes,
): HubEvalsOf {
  const kept = new Map<string, { commit: string; episodes: Promise<readonly EvalOutcome[] | undefined> }>();
  const episodesOf = (listing: RunListing): Promise<readonly EvalOutcome[] | undefined> => {
    const k = kept.get(listing.repo);
    if (k?.commit === listing.commit) return k.episodes;
    const episodes = connection()
      .then((c) => read(listing, c, ranges))
      .catch((e: unknown) => {
        warn(`${listing.repo}: logs/eval_log.jsonl at ${listing.commit.slice(0, 12)} could not be read: ${errorMessage(e)}`);
        return undefined;
      });
    kept.set(listing.repo, { commit: listing.commit, episodes });
    return episodes;
  };
  return async (listing) => {
    if (!listedEvalLog(listing)) return undefined;
    const episodes = await episodesOf(listing);
    if (!episodes) return undefined;
    const verdict = hubVerdict(episodes, await baseline());
    return { summary: evalSummary(episodes), ...(verdict ? { verdict } : {}) };
  };
}
