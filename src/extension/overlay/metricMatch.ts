/**
 * Which metric of one run is the same quantity as a metric of another. The metrics index
 * keeps each run's own names and the format document lists no metric aliases, so names
 * match exactly, and a plain GRPO run's `rollout/` names of the card's fixed-meaning
 * fields (format document, section 5) match their `ws/` names.
 */

/** A plain-RL name and the card's name of the same quantity. */
const EQUIVALENT: Readonly<Record<string, string>> = {
  'rollout/reward_mean': 'ws/reward_mean',
  'rollout/all_fail_groups': 'ws/all_fail_groups',
  'rollout/response_len_mean': 'ws/response_len_mean',
  'rollout/truncation_rate': 'ws/truncation_rate',
};

/** The name a metric is matched by across runs: the card's name where one is known, else its own. */
export function canonicalMetric(name: string): string {
  return Object.hasOwn(EQUIVALENT, name) ? EQUIVALENT[name]! : name;
}
