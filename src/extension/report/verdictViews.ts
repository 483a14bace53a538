/** The report's sign-flip groups and twin disagreements as the page lists them (pure; no vscode). */
import type { FullReport } from '../../core/report/report';
import { signFlipLine, summarizeSignFlips } from '../../core/report/signFlips';
import type { ReportVerdictView } from '../../shared/protocol/reportVerdict';

/** At most this many rows of either list (the JSON report holds them all). */
export const MAX_VERDICT_ROWS = 500;

export function reportVerdictView(full: FullReport, beta: number): ReportVerdictView {
  return {
    signFlipGroups: full.signFlipGroups.slice(0, MAX_VERDICT_ROWS).map((g) => ({
      iteration: g.iteration,
      group: g.group,
      flips: g.flips,
      rewards: [...g.rewards],
      minAbsA: g.minAbsA,
      formatFailure: g.formatFailure,
    })),
    signFlipLine: signFlipLine(summarizeSignFlips(full.signFlipGroups, beta)) ?? '',
    twinDisagreements: full.twinDisagreements.slice(0, MAX_VERDICT_ROWS).map((d) => ({ ...d })),
  };
}
