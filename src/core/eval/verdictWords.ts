/**
 * The verdict of docs/format.md section 8 in words: the one wording every view that states it
 * renders (the comparison panel, `rlrb compare`, the MCP answer). It leads with the conclusion,
 * says an inconclusive difference as a difference (never a gain or a loss) with what it would
 * take to show one, and says both the final checkpoint and the pooled figure where they disagree.
 */
import type { EvaluationComparison, PairedFigures } from './evalFigures';
import { decideVerdict } from './verdict';
import type { Conclusion } from './verdict';

/** A signed figure in points, one decimal, with a true minus sign ("+7.2", "−4.9", "0.0"). */
export function signedPoints(v: number): string {
  const x = Number((v * 100).toFixed(1));
  if (x === 0) return '0.0';
  return `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
}

/** A p value to two significant figures ("0.24", "0.052"); "< 0.001" below that. */
export function shortP(p: number): string {
  if (p < 0.001) return '< 0.001';
  return `= ${Number(p.toPrecision(2))}`;
}

/** The smallest detectable difference, in whole points from 10 up, else one decimal. */
function aboutPoints(v: number): string {
  const x = v * 100;
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1);
}

const LEAD: Record<Conclusion, string> = { better: 'A better than B', worse: 'A worse than B', inconclusive: 'Inconclusive' };

/** The sentence's first words: the conclusion. */
export function conclusionLabel(c: Conclusion): string {
  return LEAD[c];
}

/**
 * One entry in words: "Inconclusive at iteration 44: A − B = +7.2 points, 95% CI −4.9 to +19.4 (p = 0.24);
 * with 60 tasks only a difference of about 18 points would show." `where` names the entry ("at iteration 44"),
 * `unit` what its n counts ("task").
 */
export function entryWords(f: PairedFigures, where: string, unit: string): string {
  const lead = `${LEAD[f.conclusion]} ${where}`;
  if (f.meanDiff === null) return `No verdict ${where}: no ${unit} in common.`;
  const diff = `A − B = ${signedPoints(f.meanDiff)} points`;
  const units = (n: number): string => `${n} ${n === 1 ? unit : `${unit}s`}`;
  if (f.ci95 === null) return `${lead}: ${diff} on only ${units(f.tasks)}, too few for an interval; it would take at least 2.`;
  const ci = `95% CI ${signedPoints(f.ci95[0])} to ${signedPoints(f.ci95[1])}`;
  const p = f.p === null ? 'no p: every one differs by the same' : `p ${shortP(f.p)}`;
  const head = `${lead}: ${diff}, ${ci} (${p})`;
  if (f.conclusion !== 'inconclusive') return `${head}, on ${units(f.tasks)}.`;
  if (f.mde80 === null || f.mde80 === 0) return `${head}; all ${units(f.tasks)} tied.`;
  return `${head}; with ${units(f.tasks)} only a difference of about ${aboutPoints(f.mde80)} points would show.`;
}

/** The verdict as views state it. */
export interface VerdictWords {
  /** the final checkpoint's conclusion (null: no checkpoint in common), the headline's colour */
  conclusion: Conclusion | null;
  pooledConclusion: Conclusion | null;
  /** final and pooled conclude differently */
  disagree: boolean;
  /** the final checkpoint's sentence, leading with its conclusion */
  final: string;
  /** the pooled sentence ('' without a common checkpoint) */
  pooled: string;
  /** the verdict in one paragraph: the final sentence, and the pooled one where they disagree */
  text: string;
}

/** The words of a section-8 comparison (null: a run has no evaluation log). */
export function verdictWords(e: EvaluationComparison | null): VerdictWords {
  if (e === null) {
    const none = 'No verdict: a run has no evaluation log (section 8 needs both runs evaluated at the same checkpoints).';
    return { conclusion: null, pooledConclusion: null, disagree: false, final: none, pooled: '', text: none };
  }
  const n = e.iterations.length;
  const d = decideVerdict(e.final, n > 0 ? e.pooled : null);
  if (!e.final || n === 0) {
    const none = 'No verdict: the runs evaluated no checkpoint in common.';
    return { conclusion: null, pooledConclusion: null, disagree: false, final: none, pooled: '', text: none };
  }
  const final = entryWords(e.final, `at iteration ${e.final.iteration}`, 'task');
  const where = n === 1 ? 'pooled over the one common checkpoint' : `pooled over the ${n} common checkpoints`;
  const pooled = entryWords(e.pooled, where, 'checkpoint-task pair');
  const text = d.disagree ? `${final} The pooled figure says otherwise. ${pooled}` : final;
  return { conclusion: d.final, pooledConclusion: d.pooled, disagree: d.disagree, final, pooled, text };
}
