/**
 * One run's row of the runs table: the figures a sweep is judged by, each taken from the code
 * that prints it elsewhere (the report of section 4 and its training curve, the tags of section 7,
 * the evaluations of section 8), so that a cell equals `rlrb report|tags|evals --json`.
 */
import { behaviourReport } from '../behaviour/report';
import type { Run } from '../run/run';
import { TAG_NAMES } from '../../shared/shapes';
import type { TagName } from '../../shared/shapes';
import { runSettings } from './settings';
import type { RunSettings } from './settings';

export interface RunFigures {
  iterations: number;
  trajectories: number;
  /** the training curve's reward: mean of the first 10 iterations and of the last 10 */
  reward: { first: number | null; last: number | null };
  gate: { meanDiff: number | null; p: number | null; groups: number };
  signFlipRate: number | null;
  fallbackRate: number | null;
  executedIsArgmaxRate: number | null;
  /** each behaviour tag's rate over the run (null: a label tag of a run without labels) */
  tags: Record<TagName, number | null>;
  /** the last evaluated checkpoint: its iteration, tasks and success; null without evaluations */
  lastEval: { iteration: number; tasks: number; success: number } | null;
  settings: RunSettings;
}

/** The figures of a run whose logs (and evaluation log) have been read; `card` its Hub card's text. */
export function runFigures(run: Run, card?: string): RunFigures {
  const full = run.report()!;
  const r = full.report;
  const reward = full.curve.find((c) => c.name === 'reward');
  const idx = run.credit!;
  const behaviour = behaviourReport(idx, {}, idx.behaviourOptions);
  const tags = Object.fromEntries(TAG_NAMES.map((t) => [t, behaviour.tags[t]?.rate ?? null])) as Record<TagName, number | null>;
  const last = run.evalSummary()?.iterations.at(-1);
  return {
    iterations: r.iterations,
    trajectories: r.trajectories,
    reward: { first: reward?.first ?? null, last: reward?.last ?? null },
    gate: { meanDiff: r.gate.meanDiff, p: r.gate.p, groups: r.gate.groups },
    signFlipRate: r.signFlipRate,
    fallbackRate: r.fallbackRate,
    executedIsArgmaxRate: r.executedIsArgmaxRate,
    tags,
    lastEval: last ? { iteration: last.iteration, tasks: last.tasks, success: last.success } : null,
    settings: runSettings(run.metrics?.getTable(), card),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
const isNum = (v: unknown): boolean => v === null || typeof v === 'number';

/** A kept value is a `RunFigures` (the shape, not every number). */
export function isRunFigures(v: unknown): v is RunFigures {
  if (!isObject(v)) return false;
  const { reward, gate, tags, settings, lastEval } = v;
  return (
    typeof v['iterations'] === 'number' &&
    typeof v['trajectories'] === 'number' &&
    isObject(reward) &&
    isObject(gate) &&
    isObject(settings) &&
    isObject(tags) &&
    TAG_NAMES.every((t) => isNum(tags[t])) &&
    (lastEval === null || isObject(lastEval)) &&
    ['signFlipRate', 'fallbackRate', 'executedIsArgmaxRate'].every((k) => isNum(v[k]))
  );
}
