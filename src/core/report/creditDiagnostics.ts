/**
 * Credit diagnostics over training, from the report's own pass (no second read of the log): the gate's
 * mean diff per iteration with its 95% interval, a histogram of trajectory-mean c by outcome in
 * the gate's groups, and the dose per iteration. Plain arrays only, so a kept report (JSON) keeps them.
 */
import type { CreditIndex } from '../log/creditIndex';
import type { GateGroup } from './gate';
import { mean, sampleSd } from './stats';

/** The normal 97.5% quantile, as section 8's interval. */
const Z95 = 1.959963984540054;

/** Bins of width 0.1 over [-1, 1]: the range of a clipped c. */
export const C_BINS = 20;

/** The card's own whole-run dose (its table: "rms(β·c) / rms(A) 0.128, the dose"); it states no target. */
export const CARD_DOSE = 0.128;

export interface GateIteration {
  iteration: number;
  meanDiff: number;
  /** meanDiff -/+ z * sd / sqrt(groups), sd the sample sd; null below two groups */
  lo: number | null;
  hi: number | null;
  groups: number;
}

export interface CHistogram {
  /** the C_BINS + 1 edges, -1 to 1 */
  bins: number[];
  /** per bin: gate trajectories that succeeded (reward > 0), and those that failed */
  success: number[];
  failure: number[];
}

export interface DoseIteration {
  iteration: number;
  dose: number | null;
}

/** What `rlrb report --json` prints under `creditDiagnostics`. */
export interface CreditDiagnostics {
  gatePerIteration: GateIteration[];
  cHistogram: CHistogram;
  dosePerIteration: DoseIteration[];
  /** the card's whole-run dose, drawn as a reference line (not a target: the card gives none) */
  doseCard: number;
}

/** One iteration's histogram counts, kept so that a comparison can sum them over its window. */
export interface CHistogramIteration {
  iteration: number;
  success: number[];
  failure: number[];
}

export interface CreditDiagnosticsResult {
  diagnostics: CreditDiagnostics;
  histogramByIteration: CHistogramIteration[];
}

/** Bin i holds [-1 + i/10, -1 + (i+1)/10); 1 goes in the last bin, a value outside [-1, 1] in its edge bin. */
export function cBin(c: number): number {
  return Math.min(C_BINS - 1, Math.max(0, Math.floor(c * 10 + 10)));
}

export const binEdges = (): number[] => Array.from({ length: C_BINS + 1 }, (_, i) => (i - 10) / 10);

const zeros = (): number[] => new Array<number>(C_BINS).fill(0);

/** The gate's mean diff of one iteration's groups with its 95% interval. */
export function gateInterval(iteration: number, diffs: readonly number[]): GateIteration {
  const m = mean(diffs)!;
  const sd = sampleSd(diffs);
  const half = sd === null ? null : (Z95 * sd) / Math.sqrt(diffs.length);
  return { iteration, meanDiff: m, lo: half === null ? null : m - half, hi: half === null ? null : m + half, groups: diffs.length };
}

/** Per iteration (in order), the trajectory-mean c of the gate groups' trajectories, binned by outcome. */
function histogramByIteration(index: CreditIndex, groups: readonly GateGroup[]): CHistogramIteration[] {
  const c = index.columns;
  const out: CHistogramIteration[] = [];
  for (const g of groups) {
    let h = out[out.length - 1];
    if (h?.iteration !== g.iteration) out.push((h = { iteration: g.iteration, success: zeros(), failure: zeros() }));
    for (const r of g.rows) (c.reward[r]! > 0 ? h.success : h.failure)[cBin(c.sumC[r]! / c.cCount[r]!)]!++;
  }
  return out;
}

/** The histogram summed over the given iterations' counts. */
export function sumHistogram(per: readonly CHistogramIteration[]): CHistogram {
  const success = zeros();
  const failure = zeros();
  for (const h of per)
    for (let i = 0; i < C_BINS; i++) {
      success[i]! += h.success[i]!;
      failure[i]! += h.failure[i]!;
    }
  return { bins: binEdges(), success, failure };
}

/**
 * The diagnostics from what the report has already computed: `groups` the gate's groups sorted
 * by iteration, `byIteration` their diffs, `dose` each iteration's dose in order.
 */
export function creditDiagnostics(
  index: CreditIndex,
  groups: readonly GateGroup[],
  byIteration: ReadonlyMap<number, number[]>,
  dose: readonly DoseIteration[],
): CreditDiagnosticsResult {
  const its = [...byIteration.keys()].sort((a, b) => a - b);
  const perIt = histogramByIteration(index, groups);
  return {
    diagnostics: {
      gatePerIteration: its.map((it) => gateInterval(it, byIteration.get(it)!)),
      cHistogram: sumHistogram(perIt),
      dosePerIteration: dose.map((d) => ({ iteration: d.iteration, dose: d.dose })),
      doseCard: CARD_DOSE,
    },
    histogramByIteration: perIt,
  };
}

/** The diagnostics cut to a comparison's window (its iterations). */
export function windowDiagnostics(r: CreditDiagnosticsResult, iterations: readonly number[]): CreditDiagnostics {
  const keep = new Set(iterations);
  const d = r.diagnostics;
  return {
    gatePerIteration: d.gatePerIteration.filter((g) => keep.has(g.iteration)),
    cHistogram: sumHistogram(r.histogramByIteration.filter((h) => keep.has(h.iteration))),
    dosePerIteration: d.dosePerIteration.filter((x) => keep.has(x.iteration)),
    doseCard: d.doseCard,
  };
}
