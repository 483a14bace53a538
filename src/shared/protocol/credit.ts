/** The credit diagnostics as the report and the comparison panels draw them (the gate over training, c by outcome, the dose). */

/** One iteration's gate: the mean diff over its groups and its 95% interval (null below two groups). */
export interface GateIntervalView {
  iteration: number;
  meanDiff: number;
  lo: number | null;
  hi: number | null;
  groups: number;
}

/** Trajectory-mean c of the gate's trajectories by outcome, in bins of [lo, lo + 0.1). */
export interface CHistogramView {
  /** each bin's label ("-0.1 to 0.0") and its lower edge */
  labels: string[];
  lo: number[];
  success: number[];
  failure: number[];
  successTotal: number;
  failureTotal: number;
}

export interface CreditDiagnosticsView {
  gate: GateIntervalView[];
  /** the last gate iteration and how often the interval clears 0, in words ('' when there is no gate group) */
  gateWords: string;
  histogram: CHistogramView;
  dose: { iteration: number; dose: number | null }[];
  /** the card's own whole-run dose, drawn as a reference line */
  doseCard: number;
}
