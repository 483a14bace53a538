/**
 * Two runs compared: the figures of section 6, each run's section-4 report and its
 * training curve (first 10 against last 10 iterations), and warnings that say what the
 * figures leave out. Keeps each run's task column, so computing again after either log
 * grew reads only the new rows.
 */
import type { Run } from '../run/run';
import type { CurveRow, RunReport } from '../report/report';
import { TaskColumn } from './taskColumn';
import { compareRows } from './figures';
import type { Comparison, CompareCounts, CompareWindow, ComparisonFigures } from './figures';
import { behaviourComparison } from './behaviour';
import type { BehaviourComparison } from './behaviour';
import { compareEvaluations } from '../eval/evalFigures';
import { evalBehaviourComparison } from './evalBehaviour';
import type { EvaluationComparison } from '../eval/evalFigures';
import { reportJson } from '../report/reportJson';
import type { ReportJson } from '../report/reportJson';
import type { EvalLog } from '../eval/evalLog';
import { windowDiagnostics } from '../report/creditDiagnostics';
import type { CreditDiagnostics } from '../report/creditDiagnostics';

/** Both runs' credit diagnostics over the window (a plain GRPO run's gate and histogram are empty). */
export interface CreditDiagnosticsPair {
  A: CreditDiagnostics;
  B: CreditDiagnostics;
}

export interface RunComparison extends Comparison {
  warnings: string[];
  reportA: RunReport;
  reportB: RunReport;
  curveA: CurveRow[];
  curveB: CurveRow[];
  /** what `rlrb report --json` prints for each run */
  reportJsonA: ReportJson;
  reportJsonB: ReportJson;
  /** section 8: the runs paired by checkpoint and task; null when either run has no evaluation log */
  evaluation: EvaluationComparison | null;
  /** section 7: each tag's rate in A and B over the window */
  behaviour: BehaviourComparison;
  /** section 7 on the eval episodes of the checkpoints both runs evaluated; null unless both have evaluations */
  evalBehaviour: BehaviourComparison | null;
  /** each run's gate per iteration, c histogram and dose, cut to the window */
  creditDiagnostics: CreditDiagnosticsPair;
}

/**
 * What `rlrb compare --json` prints: the keys of section 6, `evaluation` (section 8), `behaviour` (section 7) and `evalBehaviour`
 * (section 7 on eval episodes), `creditDiagnostics` (both runs over the window), plus `warnings`, `reportA`, `reportB`.
 */
export type ComparisonJson = ComparisonFigures & {
  evaluation: EvaluationComparison | null;
  behaviour: BehaviourComparison;
  /** section 7 on eval episodes (null unless both runs have evaluations) */
  evalBehaviour: BehaviourComparison | null;
  creditDiagnostics: CreditDiagnosticsPair;
  warnings: string[];
  reportA: ReportJson;
  reportB: ReportJson;
};

export function comparisonJson(c: RunComparison): ComparisonJson {
  return {
    ...c.figures,
    evaluation: c.evaluation,
    behaviour: c.behaviour,
    evalBehaviour: c.evalBehaviour,
    creditDiagnostics: c.creditDiagnostics,
    warnings: c.warnings,
    reportA: c.reportJsonA,
    reportB: c.reportJsonB,
  };
}

export class RunComparer {
  private readonly columnA: TaskColumn;
  private readonly columnB: TaskColumn;

  /** Both runs need a credit log; read them (`run.update()`) before `compute`. */
  constructor(
    readonly a: Run,
    readonly b: Run,
  ) {
    if (!a.credit || !b.credit) throw new Error(`${(a.credit ? b : a).location.root}: no credit log to compare`);
    this.columnA = new TaskColumn(a.credit);
    this.columnB = new TaskColumn(b.credit);
  }

  dispose(): void {
    this.columnA.dispose();
    this.columnB.dispose();
  }

  async compute(window: CompareWindow = {}): Promise<RunComparison> {
    await Promise.all([this.columnA.update(), this.columnB.update()]);
    const fa = this.a.report()!;
    const fb = this.b.report()!;
    const rows = (col: TaskColumn): Parameters<typeof compareRows>[0] => ({
      size: col.size,
      iteration: col.iteration,
      reward: col.index.columns.reward,
      task: col.task,
      tasks: col.tasks,
    });
    const cmp = compareRows(rows(this.columnA), rows(this.columnB), window);
    const evaluation = compareEvaluations(this.a.evals?.episodes, this.b.evals?.episodes, window);
    const ea = this.a.evals;
    const eb = this.b.evals;
    const evalBehaviour = evaluation && ea && eb ? await this.evalBehaviour(ea, eb, evaluation.iterations) : null;
    return {
      ...cmp,
      warnings: this.warnings(cmp.figures, cmp.counts, fa.report, fb.report, window),
      reportA: fa.report,
      reportB: fb.report,
      curveA: fa.curve,
      curveB: fb.curve,
      behaviour: behaviourComparison(
        this.a.credit!,
        this.b.credit!,
        cmp.figures.perIteration.map((r) => r.iteration),
      ),
      reportJsonA: reportJson(fa),
      reportJsonB: reportJson(fb),
      evaluation,
      evalBehaviour,
      creditDiagnostics: {
        A: windowDiagnostics(
          fa.creditDiagnostics,
          cmp.figures.perIteration.map((r) => r.iteration),
        ),
        B: windowDiagnostics(
          fb.creditDiagnostics,
          cmp.figures.perIteration.map((r) => r.iteration),
        ),
      },
    };
  }

  /**
   * Section 7 on both runs' eval episodes: read again only when either evaluation log or the
   * checkpoints changed (an append to a credit log reads none).
   */
  private async evalBehaviour(ea: EvalLog, eb: EvalLog, iterations: readonly number[]): Promise<BehaviourComparison> {
    const key = `${ea.version}:${ea.skippedCount}:${eb.version}:${eb.skippedCount}:${iterations.join(',')}`;
    if (this.evalHeld?.key === key) return this.evalHeld.value;
    const value = await evalBehaviourComparison(ea, eb, iterations, this.a.credit!.options.match, this.a.credit!.behaviourOptions);
    this.evalHeld = { key, value };
    return value;
  }

  private evalHeld: { key: string; value: BehaviourComparison } | undefined;

  private warnings(f: ComparisonFigures, c: CompareCounts, ra: RunReport, rb: RunReport, w: CompareWindow): string[] {
    const out: string[] = [];
    const sides = [
      { name: 'A', run: this.a, report: ra, notCounted: c.notCountedA, unkeyed: c.unkeyedA },
      { name: 'B', run: this.b, report: rb, notCounted: c.notCountedB, unkeyed: c.unkeyedB },
    ];
    if (f.iterations === 0) {
      const cut = w.from !== undefined || w.to !== undefined ? ` in [${w.from ?? '…'}, ${w.to ?? '…'}]` : '';
      out.push(`the runs share no iteration${cut}: nothing to compare`);
    }
    for (const s of sides) {
      const where = `run ${s.name} (${s.run.credit!.path})`;
      if (s.report.labeledTurns === 0)
        out.push(`${where}: no labeled turn (a plain GRPO run?): its figures that need labeled turns are null`);
      if (s.notCounted > 0)
        out.push(`${where}: ${s.notCounted} trajectory(ies) not counted: the iteration is not a whole number or the reward not finite`);
      if (s.unkeyed > 0) out.push(`${where}: ${s.unkeyed} trajectory(ies) of the window have neither task_id nor instruction: not paired`);
    }
    if (c.onlyA > 0 || c.onlyB > 0)
      out.push(`${c.onlyA} task(s) of the window seen by run A only and ${c.onlyB} by run B only: not paired`);
    const noEvals = sides.filter((s) => !s.run.evals);
    if (noEvals.length > 0) out.push(missingEvalsWarning(noEvals.map((s) => ({ name: s.name, root: s.run.location.root }))));
    return out;
  }
}

/** The file a verdict needs (docs/format.md section 8's reference path). */
export const EVAL_LOG_PATH = 'logs/eval_log.jsonl';

/** The warning when `evaluation` is null: which run (A, B or both) has no evaluation log, and where the file would go. */
export function missingEvalsWarning(runs: readonly { name: string; root: string }[]): string {
  const which = runs.map((r) => `run ${r.name} (${r.root})`).join(' and ');
  const has = runs.length > 1 ? 'have' : 'has';
  return `${which} ${has} no ${EVAL_LOG_PATH}: \`evaluation\` is null, no checkpoint verdict (docs/format.md section 8)`;
}
