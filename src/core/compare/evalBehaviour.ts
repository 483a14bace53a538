/**
 * The behaviour tags on eval episodes (docs/format.md sections 7 and 8): each episode read
 * back, tagged from its actions and reward alone (no labels: `collapsed` and
 * `creditDisagrees` are null), and compared like the training rollouts.
 */
import type { EvalLog } from '../eval/evalLog';
import type { MatchOptions } from '../credit/actions';
import { tagTrajectory } from '../behaviour/tagTrajectory';
import { LABEL_TAGS, TAG_NAMES } from '../behaviour/tags';
import type { BehaviourOptions } from '../behaviour/tags';
import { twoProportions } from './behaviour';
import type { BehaviourComparison } from './behaviour';

/** Episodes and, per tag (`TAG_NAMES` order), how many have it. */
export interface EpisodeTally {
  episodes: number;
  tagged: number[];
}

/** Every episode of `log` at one of `iterations`, read and tagged. */
export async function tallyEpisodes(
  log: EvalLog,
  iterations: ReadonlySet<number>,
  m: MatchOptions,
  o: BehaviourOptions,
  signal?: AbortSignal,
): Promise<EpisodeTally> {
  const out: EpisodeTally = { episodes: 0, tagged: TAG_NAMES.map(() => 0) };
  const picked = log.episodes.flatMap((e, i) => (iterations.has(e.iteration) ? [i] : []));
  for await (const e of log.readMany(picked)) {
    signal?.throwIfAborted();
    const { bits } = tagTrajectory({ actions: e.turns.map((t) => (t.action === '' ? null : t.action)), reward: e.reward }, m, o);
    out.episodes++;
    TAG_NAMES.forEach((_, k) => {
      if ((bits & (1 << k)) !== 0) out.tagged[k]!++;
    });
  }
  return out;
}

/** Each tag's rates on A's and B's eval episodes at the common checkpoints; the label tags all null. */
export function compareEpisodeTallies(a: EpisodeTally, b: EpisodeTally): BehaviourComparison {
  const out = {} as BehaviourComparison;
  TAG_NAMES.forEach((name, k) => {
    out[name] = LABEL_TAGS.includes(name)
      ? { rateA: null, rateB: null, diff: null, p: null }
      : twoProportions(a.tagged[k]!, a.episodes, b.tagged[k]!, b.episodes);
  });
  return out;
}

/** Section 7's comparison on eval episodes of the checkpoints both runs evaluated (`iterations`). */
export async function evalBehaviourComparison(
  a: EvalLog,
  b: EvalLog,
  iterations: readonly number[],
  m: MatchOptions,
  o: BehaviourOptions,
  signal?: AbortSignal,
): Promise<BehaviourComparison> {
  const its = new Set(iterations);
  const [ta, tb] = await Promise.all([tallyEpisodes(a, its, m, o, signal), tallyEpisodes(b, its, m, o, signal)]);
  return compareEpisodeTallies(ta, tb);
}
