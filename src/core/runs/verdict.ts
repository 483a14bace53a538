/**
 * A run's checkpoint verdict against the baseline (section 8): the runs paired by checkpoint and
 * task as `rlrb compare` pairs them, at the last checkpoint both evaluated (`final`) and over all
 * of them (`pooled`), each with its conclusion.
 */
import { compareEvaluations } from '../eval/evalFigures';
import type { EvalOutcome } from '../eval/evalFigures';
import type { Conclusion } from '../eval/verdict';

export interface VerdictFigures {
  tasks: number;
  meanDiff: number | null;
  ci95: [number, number] | null;
  p: number | null;
  conclusion: Conclusion;
  /** the difference this many tasks would detect at 80% power */
  mde80: number | null;
}

export interface Verdict {
  /** the last checkpoint both runs evaluated; null when they share none */
  iteration: number | null;
  final: VerdictFigures | null;
  pooled: VerdictFigures;
}

/** The comparison's own figures, its conclusion included (one decision: `conclusionOf` in eval/verdict). */
function figures(f: VerdictFigures): VerdictFigures {
  return { tasks: f.tasks, meanDiff: f.meanDiff, ci95: f.ci95, p: f.p, conclusion: f.conclusion, mde80: f.mde80 };
}

/** Null when either run has no evaluation log. */
export function verdictOf(a: readonly EvalOutcome[] | undefined, baseline: readonly EvalOutcome[] | undefined): Verdict | null {
  const e = compareEvaluations(a, baseline);
  if (!e) return null;
  return { iteration: e.final?.iteration ?? null, final: e.final ? figures(e.final) : null, pooled: figures(e.pooled) };
}

export function isVerdict(v: unknown): v is Verdict | null {
  if (v === null) return true;
  if (typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return (o['iteration'] === null || typeof o['iteration'] === 'number') && typeof o['pooled'] === 'object' && o['pooled'] !== null;
}
