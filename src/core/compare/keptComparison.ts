/**
 * A comparison (`RunComparer.compute` over the whole runs, what the comparison panel shows)
 * kept with the saved indexes of run A, keyed by both runs' logs as of their last updates
 * (`Run.figuresAcross`): a second open of two unchanged runs reads neither log again.
 */
import { Run } from '../run/run';
import type { RunComparer, RunComparison } from './compareRuns';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
const ARRAYS = ['perTask', 'warnings', 'curveA', 'curveB'];
const OBJECTS = ['figures', 'counts', 'reportA', 'reportB', 'reportJsonA', 'reportJsonB', 'behaviour'];

/** A kept value read back: the shape of a `RunComparison`. */
export function isRunComparison(v: unknown): v is RunComparison {
  if (!isObject(v)) return false;
  const f = v['figures'];
  return (
    ARRAYS.every((k) => Array.isArray(v[k])) &&
    OBJECTS.every((k) => isObject(v[k])) &&
    (v['evaluation'] === null || isObject(v['evaluation'])) &&
    (v['evalBehaviour'] === null || isObject(v['evalBehaviour'])) &&
    isObject(f) &&
    Array.isArray(f['perIteration'])
  );
}

/** The comparison of `a` and `b` (each updated just before) over the whole runs: kept, else computed by `comparer()`'s comparer. */
export function keptComparison(
  a: Run,
  b: Run,
  comparer: () => RunComparer,
): Promise<{ value: RunComparison; source: 'kept' | 'computed' }> {
  return Run.figuresAcross(a, b, 'comparison', { window: {} }, isRunComparison, () => comparer().compute());
}
