/**
 * From a point on a metric's chart to the trajectories behind it: which filter and sort
 * the trajectory browser opens with. One small table; the first matching row wins.
 */
import type { TrajectoryQuery } from '../../shared/shapes';
import { Flag } from '../../shared/shapes';

export interface Jump {
  /** a few words for the browser's header */
  label: string;
  spec: TrajectoryQuery;
}

const ROWS: readonly { match: RegExp; label: string; spec: (it: number) => TrajectoryQuery }[] = [
  {
    match: /sign_flip/,
    label: 'turns that flipped sign',
    spec: (it) => ({
      filter: { iterationMin: it, iterationMax: it, flags: Flag.SignFlip },
      sort: [{ key: 'signFlips', descending: true }],
    }),
  },
  {
    match: /executed_is_argmax|argmax/,
    label: 'executed candidate was the argmax',
    spec: (it) => ({
      filter: { iterationMin: it, iterationMax: it, flags: Flag.Argmax },
      sort: [{ key: 'argmaxTurns', descending: true }],
    }),
  },
  {
    match: /gate/,
    label: "the mixed groups' labeled pairs",
    spec: (it) => ({
      filter: { iterationMin: it, iterationMax: it, gate: true },
      sort: [{ key: 'group' }, { key: 'reward', descending: true }],
    }),
  },
  {
    match: /fallback/,
    label: 'fallback turns',
    spec: (it) => ({ filter: { iterationMin: it, iterationMax: it, flags: Flag.Fallback }, sort: [] }),
  },
  {
    match: /c_mean|mean_c|\bc_rms|credit/,
    label: 'sorted by mean c',
    spec: (it) => ({ filter: { iterationMin: it, iterationMax: it, labeledOnly: true }, sort: [{ key: 'meanC', descending: true }] }),
  },
  {
    match: /all_fail/,
    label: 'failed first',
    spec: (it) => ({ filter: { iterationMin: it, iterationMax: it }, sort: [{ key: 'reward' }] }),
  },
];

/** A reward or success chart: a spike up opens the successes first, anything else the failures first. */
const OUTCOME = /reward|success/;

/** Whether the point at `iteration` stands above (`up`) or below (`down`) the mean of its finite neighbours; undefined without one. */
export function pointDirection(xs: readonly number[], values: ArrayLike<number>, iteration: number): 'up' | 'down' | undefined {
  const i = xs.indexOf(iteration);
  const v = values[i];
  if (i < 0 || v === undefined || !Number.isFinite(v)) return undefined;
  const near: number[] = [];
  for (let j = i - 1; j >= 0; j--)
    if (Number.isFinite(values[j]!)) {
      near.push(values[j]!);
      break;
    }
  for (let j = i + 1; j < values.length; j++)
    if (Number.isFinite(values[j]!)) {
      near.push(values[j]!);
      break;
    }
  if (near.length === 0) return undefined;
  const m = near.reduce((a, b) => a + b, 0) / near.length;
  return v > m ? 'up' : v < m ? 'down' : undefined;
}

/** The jump from a metric's point; `direction`: the point against its neighbours (a reward spike up opens the successes first). */
export function jumpFor(metric: string, iteration: number, direction?: 'up' | 'down'): Jump {
  for (const r of ROWS) if (r.match.test(metric)) return { label: `${metric} @ ${iteration}: ${r.label}`, spec: r.spec(iteration) };
  if (OUTCOME.test(metric)) {
    const up = direction === 'up';
    return {
      label: `${metric} @ ${iteration}: ${up ? 'succeeded first' : 'failed first'}`,
      spec: {
        filter: { iterationMin: iteration, iterationMax: iteration },
        sort: [{ key: 'reward', ...(up ? { descending: true } : {}) }],
      },
    };
  }
  return {
    label: `${metric} @ ${iteration}: sorted by reward`,
    spec: { filter: { iterationMin: iteration, iterationMax: iteration }, sort: [{ key: 'reward', descending: true }] },
  };
}

/** From a bar of the report's gate chart (`gate`) or an iteration link: that iteration's trajectories. */
export function iterationJump(iteration: number, gate: boolean): Jump {
  return gate
    ? jumpFor('ws/gate_mean_diff', iteration)
    : {
        label: `iteration ${iteration}`,
        spec: { filter: { iterationMin: iteration, iterationMax: iteration }, sort: [{ key: 'reward' }] },
      };
}
