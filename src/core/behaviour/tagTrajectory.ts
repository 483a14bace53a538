/**
 * The tags of one trajectory, a pure function of its executed actions, its reward and
 * its labeled turns (none for an eval episode): what the index computes row by row and
 * what a trajectory read whole or an eval episode gets, from the same code.
 */
import { collapseOf, Collapse } from '../credit/turnMarks';
import type { TurnInput } from '../credit/turnMarks';
import type { MatchOptions } from '../credit/actions';
import { StringActions } from './actionSeq';
import type { ActionSeq } from './actionSeq';
import { actionWindows } from './windows';
import { Tag, tagBits } from './tags';
import type { BehaviourOptions } from './tags';

/** What the index stores of a trajectory's behaviour (beside its turns, reward, cCount and sumC). */
export interface StoredBehaviour {
  /** `STORED_BITS` */
  stored: number;
  /** collapsed turns */
  collapsedTurns: number;
  /** credited turns with a non-empty comparison set */
  comparedTurns: number;
}

/** The stored part: the action windows, and the collapse of each labeled turn (into `out` when given: the index reuses one). */
export function storedBehaviour(
  actions: ActionSeq,
  turns: readonly TurnInput[],
  m: MatchOptions,
  out: StoredBehaviour = { stored: 0, collapsedTurns: 0, comparedTurns: 0 },
): StoredBehaviour {
  let stored = actionWindows(actions);
  let collapsedTurns = 0;
  let comparedTurns = 0;
  for (const t of turns) {
    if (t.scores === null || t.scores.length < 2) continue;
    const k = collapseOf(t, m);
    if (k === Collapse.None) continue;
    comparedTurns++;
    if (k === Collapse.Collapsed) collapsedTurns++;
  }
  if (collapsedTurns > 0) stored |= Tag.Collapsed;
  out.stored = stored;
  out.collapsedTurns = collapsedTurns;
  out.comparedTurns = comparedTurns;
  return out;
}

export interface TagInput {
  /** the executed actions, a_0..a_{n-1} (null: a turn without one) */
  actions: readonly (string | null)[];
  reward: number;
  /** the turns with their labels (`scores`, `same`, `c`, ...); an eval episode has none */
  turns?: readonly TurnInput[];
}

export interface TrajectoryTags extends StoredBehaviour {
  /** every tag that holds (`Tag` bits); 0 when the reward is not finite (not counted) */
  bits: number;
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Section 7 for one trajectory. `collapsed` and `creditDisagrees` need labels: for a run without any they are null, which is the
 * caller's to say.
 */
export function tagTrajectory(t: TagInput, m: MatchOptions, o: BehaviourOptions): TrajectoryTags {
  const turns = t.turns ?? [];
  const s = storedBehaviour(new StringActions(t.actions, m), turns, m);
  let cCount = 0;
  let sumC = 0;
  for (const u of turns) {
    const credited = u.scores !== null && u.scores.length >= 2 && !u.masked && !u.fallback;
    if (credited && isNum(u.c)) {
      cCount++;
      sumC += u.c;
    }
  }
  const bits = Number.isFinite(t.reward) ? tagBits({ stored: s.stored, turns: t.actions.length, reward: t.reward, cCount, sumC }, o) : 0;
  return { ...s, bits };
}
