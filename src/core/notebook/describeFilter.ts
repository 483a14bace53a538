/** The browser's filter in words, for a notebook's heading or an export's title. */
import type { TrajectoryFilter } from '../../shared/shapes';
import { Flag } from '../../shared/shapes';

const REWARD_WORDS = {
  success: 'succeeded (reward > 0)',
  failure: 'failed (reward <= 0)',
  format: 'format failures (reward < 0)',
} as const;
const FLAG_WORDS: [number, string][] = [
  [Flag.SignFlip, 'a sign flip'],
  [Flag.Argmax, 'an argmax turn'],
  [Flag.Fallback, 'a fallback turn'],
];

function iterations(f: TrajectoryFilter): string | undefined {
  const { iterationMin: lo, iterationMax: hi } = f;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `iteration ${lo}` : `iterations ${lo} to ${hi}`;
  if (lo !== undefined) return `iterations from ${lo}`;
  if (hi !== undefined) return `iterations up to ${hi}`;
  return undefined;
}

/** e.g. `iterations 3 to 10, group 2, failed (reward <= 0), labeled, with a sign flip, text "click"`; `all trajectories` for none. */
export function describeFilter(f: TrajectoryFilter): string {
  const parts: string[] = [];
  const its = iterations(f);
  if (its) parts.push(its);
  if (f.group !== undefined) parts.push(`group ${f.group}`);
  if (f.rollout !== undefined) parts.push(`rollout ${f.rollout}`);
  if (f.reward) parts.push(REWARD_WORDS[f.reward]);
  if (f.labeledOnly) parts.push('labeled');
  for (const [bit, words] of FLAG_WORDS) if (((f.flags ?? 0) & bit) !== 0) parts.push(`with ${words}`);
  if (f.gate) parts.push("in the gate's mixed groups");
  if (f.tags && f.tags.length > 0) parts.push(`tagged ${f.tags.join(' and ')}`);
  if (f.text) parts.push(`text ${JSON.stringify(f.text)}`);
  return parts.length === 0 ? 'all trajectories' : parts.join(', ');
}
