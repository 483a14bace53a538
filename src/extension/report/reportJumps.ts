/** From a row of the run report (or a side of a gate pair) to the trajectories behind it: the browser's filter and sort. */
import type { TrajectoryQuery } from '../../shared/shapes';
import { Flag } from '../../shared/shapes';
import { isTagName } from '../../core/behaviour/tags';
import { TAG_WORDS } from '../../shared/tagWords';
import type { Jump } from './jumpTable';

const BY_KEY: Readonly<Record<string, { label: string; spec: TrajectoryQuery }>> = {
  signFlipRate: { label: 'sign-flip turns', spec: { filter: { flags: Flag.SignFlip }, sort: [{ key: 'signFlips', descending: true }] } },
  fallbackRate: { label: 'fallback turns', spec: { filter: { flags: Flag.Fallback }, sort: [{ key: 'fallbackTurns', descending: true }] } },
  executedIsArgmaxRate: {
    label: 'executed candidate was the argmax',
    spec: { filter: { flags: Flag.Argmax }, sort: [{ key: 'argmaxTurns', descending: true }] },
  },
  cMismatches: { label: 'c mismatches', spec: { filter: { flags: Flag.CMismatch }, sort: [] } },
  aTMismatches: { label: 'A_t mismatches', spec: { filter: { flags: Flag.ATMismatch }, sort: [] } },
};

const LABELED_BY_C: { label: string; spec: TrajectoryQuery } = {
  label: 'labeled, sorted by mean c',
  spec: { filter: { labeledOnly: true }, sort: [{ key: 'meanC', descending: true }] },
};
const GATE: { label: string; spec: TrajectoryQuery } = {
  label: "the gate's labeled pairs",
  spec: { filter: { gate: true }, sort: [{ key: 'iteration' }, { key: 'group' }, { key: 'reward', descending: true }] },
};

/** The trajectories behind a report row (`tag.<name>`: a behaviour tag's), or undefined for a key with none. */
export function figureJump(key: string): Jump | undefined {
  const tag = key.startsWith('tag.') ? key.slice(4) : undefined;
  if (tag !== undefined && isTagName(tag))
    return { label: `run report: tag ${TAG_WORDS[tag].label}`, spec: { filter: { tags: [tag] }, sort: [] } };
  const j = Object.hasOwn(BY_KEY, key)
    ? BY_KEY[key]
    : key.startsWith('gate.')
      ? GATE
      : key === 'meanC' || key === 'rmsBetaCOverRmsA' || key === 'auroc'
        ? LABELED_BY_C
        : undefined;
  return j && { label: `run report: ${j.label}`, spec: j.spec };
}

/** One side of a gate group: its succeeded (or failed) labeled trajectories. */
export function gateSideJump(iteration: number, group: number, side: 'succeeded' | 'failed'): Jump {
  return {
    label: `gate, iteration ${iteration} group ${group}: ${side}`,
    spec: {
      filter: { iterationMin: iteration, iterationMax: iteration, group, gate: true, reward: side === 'succeeded' ? 'success' : 'failure' },
      sort: [{ key: 'rollout' }],
    },
  };
}
