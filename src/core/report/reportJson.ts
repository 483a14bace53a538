/**
 * What `rlrb report --json` prints: the figures of section 4, per iteration, the sign-flip groups,
 * the twin disagreements and the credit diagnostics.
 */
import type { FullReport, IterationFigures, RunReport } from './report';
import type { SignFlipGroup } from './signFlips';
import type { TwinDisagreement } from './twins';
import type { CreditDiagnostics } from './creditDiagnostics';

/** One entry of `perIteration` (section 4): the figures over one iteration's trajectories alone. */
export interface ReportIteration {
  iteration: number;
  trajectories: number;
  signFlipRate: number | null;
  fallbackRate: number | null;
  executedIsArgmaxRate: number | null;
  meanC: number | null;
  rmsBetaCOverRmsA: number | null;
  gateMeanDiff: number | null;
}

export type ReportJson = RunReport & {
  perIteration: ReportIteration[];
  signFlipGroups: SignFlipGroup[];
  twinDisagreements: TwinDisagreement[];
  creditDiagnostics: CreditDiagnostics;
};

export function reportIteration(p: IterationFigures): ReportIteration {
  return {
    iteration: p.iteration,
    trajectories: p.trajectories,
    signFlipRate: p.signFlipRate,
    fallbackRate: p.fallbackRate,
    executedIsArgmaxRate: p.executedIsArgmaxRate,
    meanC: p.meanC,
    rmsBetaCOverRmsA: p.rmsBetaCOverRmsA,
    gateMeanDiff: p.gateMeanDiff,
  };
}

export function reportJson(full: FullReport): ReportJson {
  return {
    ...full.report,
    perIteration: full.perIteration.map(reportIteration),
    signFlipGroups: full.signFlipGroups,
    twinDisagreements: full.twinDisagreements,
    creditDiagnostics: full.creditDiagnostics.diagnostics,
  };
}
