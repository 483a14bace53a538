/** Builds the webviews' plain view models from the engine's objects (pure; no vscode). */
import type { CreditIndex, TrajectoryRow } from '../../core/log/creditIndex';
import type { MetricsTable } from '../../core/log/metricsIndex';
import { metricPrefix } from '../../core/log/metricsIndex';
import type { TrajectoryView } from '../../core/record/trajectory';
import { recomputeCredit, executedIsArgmax } from '../../core/credit/credit';
import type { CreditParams } from '../../core/credit/credit';
import { decimate } from './decimate';
import { METRIC_TARGETS, reportLines } from '../../core/report/targets';
import type { FullReport, CurveRow, GateReport, RunReport } from '../../core/report/report';
import type { SchemaCheck } from '../../core/record/schema';
import type { SeriesView } from '../../shared/protocol/metrics';
import type { RowView, TrajectoryDetailView } from '../../shared/protocol/trajectories';
import type { GateFiguresView, ReportFiguresView, ReportView } from '../../shared/protocol/report';

const fin = (v: number): number | null => (Number.isFinite(v) ? v : null);

export function rowView(r: TrajectoryRow): RowView {
  return {
    row: r.row,
    iteration: r.iteration,
    group: r.group,
    rollout: r.rollout,
    reward: fin(r.reward),
    A: fin(r.A),
    labeled: r.labeled,
    turns: r.turns,
    labeledTurns: r.labeledTurns,
    meanC: r.meanC,
    signFlips: r.signFlips,
    argmaxTurns: r.argmaxTurns,
    fallbackTurns: r.fallbackTurns,
    flags: r.flags,
  };
}

/** Every series, decimated to about `width` points (LTTB, gaps kept). */
export function seriesViews(t: MetricsTable, width: number): SeriesView[] {
  const xs = t.iterations;
  return t.series.map((s) => {
    const d = decimate(xs, s.values, Math.max(50, Math.round(width)));
    const target = METRIC_TARGETS[s.name];
    return {
      name: s.name,
      group: metricPrefix(s.name) || 'other',
      x: d.x,
      y: d.y.map((v) => (Number.isFinite(v) ? v : null)),
      ...(target ? { target } : {}),
    };
  });
}

function extrasText(o: Record<string, unknown>): string | null {
  return Object.keys(o).length === 0 ? null : JSON.stringify(o, null, 1);
}

export function detailView(index: CreditIndex, row: number, t: TrajectoryView, p: CreditParams): TrajectoryDetailView {
  const r = index.row(row);
  const group5 = index.groupRows(t.iteration, t.group).map((i) => rowView(index.row(i)));
  return {
    row,
    line: r.line,
    iteration: t.iteration,
    group: t.group,
    rollout: t.rollout,
    taskId: t.taskId,
    instruction: t.instruction,
    reward: fin(t.reward),
    A: fin(t.A),
    labeled: t.labeled,
    meanC: r.meanC,
    beta: p.beta,
    extras: extrasText(t.extras),
    group5,
    turns: t.turns.map((u) => {
      const labeled = (u.scores?.length ?? 0) >= 2;
      const rc = labeled ? recomputeCredit({ scores: u.scores!, same: u.same, done: u.done }, p) : undefined;
      const argmax = labeled && executedIsArgmax(u.scores!);
      const K = labeled ? u.scores!.length : 0;
      return {
        index: u.index,
        action: u.action,
        labeled,
        masked: u.masked,
        fallback: u.fallback,
        candidates: Array.from({ length: K }, (_, k) => {
          const term = k === 0 ? undefined : rc!.terms[k - 1];
          const s = u.scores![k] ?? null;
          return {
            k,
            text: u.candidates?.[k] ?? (k === 0 ? u.action : null),
            score: s,
            same: k === 0 || u.same?.[k] === true,
            done: u.done?.[k] === true,
            d: term ? term.d : null,
            dropped: term ? term.dropped : null,
            isArgmax: k === 0 ? argmax : false,
          };
        }),
        c: typeof u.c === 'number' && Number.isFinite(u.c) ? u.c : null,
        cRecomputed: labeled && !u.masked && !u.fallback ? rc!.c : null,
        At: u.At !== undefined && Number.isFinite(u.At) ? u.At : null,
        extras: extrasText(u.extras),
      };
    }),
  };
}

function gateView(g: GateReport): GateFiguresView {
  return {
    groups: g.groups,
    meanDiff: g.meanDiff,
    t: g.t,
    p: g.p,
    iterations: g.iterations,
    iterationsPositive: g.iterationsPositive,
    signTestP: g.signTestP,
    firstHalfMeanDiff: g.firstHalfMeanDiff,
    secondHalfMeanDiff: g.secondHalfMeanDiff,
  };
}

/** The report's figures, field by field: the wire type says exactly what the page gets. */
export function figuresView(r: RunReport): ReportFiguresView {
  return {
    signFlipRate: r.signFlipRate,
    fallbackRate: r.fallbackRate,
    executedIsArgmaxRate: r.executedIsArgmaxRate,
    meanC: r.meanC,
    rmsBetaCOverRmsA: r.rmsBetaCOverRmsA,
    cMismatches: r.cMismatches,
    aTMismatches: r.aTMismatches,
    gate: gateView(r.gate),
    auroc: r.auroc,
    trajectories: r.trajectories,
    iterations: r.iterations,
    labeledTurns: r.labeledTurns,
    creditedTurns: r.creditedTurns,
    skippedLines: r.skippedLines,
    warnings: [...r.warnings],
  };
}

export function reportView(runName: string, full: FullReport & { curve: CurveRow[] }, check: SchemaCheck, index: CreditIndex): ReportView {
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
    beta: index.options.credit.beta,
    tau: index.options.credit.tau,
  };
}
