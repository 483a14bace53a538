/** The report's explanations: the groups behind the sign flips and the logged figures that differ from their recomputed twin. */

export interface SignFlipGroupView {
  iteration: number;
  group: number;
  flips: number;
  rewards: (number | null)[];
  minAbsA: number | null;
  formatFailure: boolean;
}

export interface ReportVerdictView {
  signFlipGroups: SignFlipGroupView[];
  /** the one line when every flip is in a format-failure group ('' otherwise) */
  signFlipLine: string;
  twinDisagreements: { iteration: number; metric: string; logged: number; recomputed: number }[];
}
