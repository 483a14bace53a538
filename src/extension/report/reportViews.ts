/** The run report's view model from the engine's report (pure; no vscode). */
import { reportBehaviourView } from './behaviourViews';
import type { CreditIndex } from '../../core/log/creditIndex';
import { reportLines } from '../../core/report/targets';
import { reportVerdictView } from './verdictViews';
import { creditDiagnosticsView } from './creditViews';
import type { FullReport, CurveRow, GateGroup, RunReport } from '../../core/report/report';
import type { ReportFigures } from '../../shared/shapes';
import type { SchemaCheck } from '../../core/record/schema';
import type { BehaviourFigures } from '../../core/behaviour/behaviourFigures';
import type { CheckpointVerdictView, GateGroupView, ReportView } from '../../shared/protocol/report';
import { NO_CHECKPOINT_VERDICT } from './checkpointVerdict';
import { GATE_GROUP_PAGE, MAX_GATE_GROUPS } from '../../shared/protocol/report';

/** The report's figures as the wire sends them: core's shape (src/shared/shapes.ts), copied so the view owns its arrays. */
export function figuresView(r: RunReport): ReportFigures {
  return { ...r, gate: { ...r.gate }, warnings: [...r.warnings] };
}

/** A gate group with the mean of each side, from the same per-trajectory mean c the gate uses. */
function gateGroupView(g: GateGroup, index: CreditIndex): GateGroupView {
  const c = index.columns;
  const succ: number[] = [];
  const fail: number[] = [];
  for (const r of g.rows) (c.reward[r]! > 0 ? succ : fail).push(c.sumC[r]! / c.cCount[r]!);
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    iteration: g.iteration,
    group: g.group,
    succeededMeanC: mean(succ),
    failedMeanC: mean(fail),
    diff: g.diff,
    succeeded: succ.length,
    failed: fail.length,
  };
}

/** The gate groups' table from `offset` on, at most `limit` of them (none past MAX_GATE_GROUPS). */
export function gateGroupPage(full: FullReport, index: CreditIndex, offset: number, limit: number): GateGroupView[] {
  const end = Math.min(offset + limit, full.gateGroups.length, MAX_GATE_GROUPS);
  return full.gateGroups.slice(Math.min(offset, end), end).map((g) => gateGroupView(g, index));
}

/** The report's view: every part drawn at first, and the first page of the gate groups (the host answers the rest). */
export function reportView(
  runName: string,
  full: FullReport & { curve: CurveRow[] },
  check: SchemaCheck,
  index: CreditIndex,
  behaviour?: BehaviourFigures,
  checkpointVerdict: CheckpointVerdictView = NO_CHECKPOINT_VERDICT,
): ReportView {
  const c = index.columns;
  const mismatches: ReportView['mismatches'] = [];
  for (let i = 0; i < index.size && mismatches.length < 200; i++) {
    if (c.cMismatches[i]! > 0 || c.aTMismatches[i]! > 0)
      mismatches.push({
        row: i,
        iteration: c.iteration[i]!,
        group: c.group[i]!,
        rollout: c.rollout[i]!,
        c: c.cMismatches[i]!,
        aT: c.aTMismatches[i]!,
      });
  }
  return {
    runName,
    figures: figuresView(full.report),
    lines: reportLines(full.report),
    curve: full.curve.map((x) => ({ name: x.name, first: x.first, last: x.last, source: x.source })),
    gatePerIteration: full.perIteration.map((p) => ({ iteration: p.iteration, meanDiff: p.gateMeanDiff, groups: p.gateGroups })),
    schema: check.fields.map((f) => ({
      field: f.level === 'turn' ? `turn.${f.field}` : f.field,
      level: f.level,
      required: f.required,
      foundAs: f.foundAs.map((x) => `${x.name}${x.alias ? ' (alias)' : ''}`).join(', '),
      missing: f.missing,
    })),
    notFound: check.notFound,
    unknownKeys: [...check.unknownTrajectoryKeys.map((k) => k.name), ...check.unknownTurnKeys.map((k) => `turn.${k.name}`)],
    skipped: index.skippedLines.slice(0, 200),
    skippedCount: index.skippedCount,
    mismatches,
    warnings: full.report.warnings,
    gateGroups: gateGroupPage(full, index, 0, GATE_GROUP_PAGE),
    gateGroupsListed: Math.min(full.gateGroups.length, MAX_GATE_GROUPS),
    gateGroupCount: full.gateGroups.length,
    beta: index.options.credit.beta,
    tau: index.options.credit.tau,
    verdict: reportVerdictView(full, index.options.credit.beta),
    checkpointVerdict,
    behaviour: reportBehaviourView(index, behaviour),
    credit: creditDiagnosticsView(full.creditDiagnostics.diagnostics),
  };
}
