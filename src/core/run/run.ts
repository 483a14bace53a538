/** A run: its location, its credit-log index and its metrics, loaded together. */
import { CreditIndex, DEFAULT_INDEX_OPTIONS } from '../log/creditIndex';
import type { IndexEngine, IndexOptions } from '../log/creditIndex';
import { MetricsIndex } from '../log/metricsIndex';
import { errorDetail } from '../errorMessage';
import { locateRun } from './runLocator';
import type { RunLocation } from './runLocator';
import { computeReport, trainingCurve } from '../report/report';
import { EvalLog } from '../eval/evalLog';
import { evalSummary } from '../eval/evalFigures';
import type { EvalSummary } from '../eval/evalFigures';
import type { CurveRow, FullReport } from '../report/report';

export class Run {
  readonly credit: CreditIndex | undefined;
  readonly metrics: MetricsIndex | undefined;
  /** the checkpoint evaluations (run-format.md section 8), when the run has an evaluation log */
  readonly evals: EvalLog | undefined;

  constructor(
    readonly location: RunLocation,
    readonly options: IndexOptions = DEFAULT_INDEX_OPTIONS,
    engine: IndexEngine = {},
  ) {
    const remote = location.remote;
    // a Hub log read in place: its bytes come from the source, one thread, and its saved index is kept by its owner
    const creditEngine = remote?.credit ? { source: remote.credit } : engine;
    this.credit = location.creditLog ? new CreditIndex(location.creditLog, options, undefined, creditEngine) : undefined;
    const metricsLimits = remote?.metrics ? { source: remote.metrics } : {};
    const metricsEngine = remote?.metrics ? {} : engine;
    this.metrics = location.metricsLog ? new MetricsIndex(location.metricsLog, options.mapping, metricsEngine, metricsLimits) : undefined;
    const evalLimits = remote?.evals ? { source: remote.evals } : {};
    this.evals = location.evalLog ? new EvalLog(location.evalLog, options.mapping, evalLimits) : undefined;
  }

  /** `engine.store`: a folder of saved indexes, so that a log opened before starts from its saved index. */
  static async open(path: string, options: IndexOptions = DEFAULT_INDEX_OPTIONS, engine: IndexEngine = {}): Promise<Run | undefined> {
    const loc = await locateRun(path);
    return loc ? new Run(loc, options, engine) : undefined;
  }

  /** Why the metrics log could not be read at the last update, when it could not. */
  metricsError: string | undefined;
  /** Why the evaluation log could not be read at the last update, when it could not. */
  evalsError: string | undefined;

  /**
   * Reads what is new in both logs. With a credit log, a metrics log that cannot be
   * read is a warning (`metricsError`), never a failure: the report and the detail
   * need only the credit log.
   */
  async update(signal?: AbortSignal): Promise<void> {
    const metrics = this.metrics?.update(signal).then(
      () => {
        this.metricsError = undefined;
      },
      (e: unknown) => {
        if (!this.credit || signal?.aborted) throw e;
        this.metricsError = errorDetail(e);
      },
    );
    // a Hub log read in place is fetched only when asked for (`updateEvals`): opening a run for its report reads two logs
    const evals = (this.location.remote?.evals ? undefined : this.evals)?.update(signal).then(
      () => {
        this.evalsError = undefined;
      },
      (e: unknown) => {
        if ((!this.credit && !this.metrics) || signal?.aborted) throw e;
        this.evalsError = errorDetail(e);
      },
    );
    await Promise.all([this.credit?.update(signal), metrics, evals]);
  }

  /** Reads what is new in the evaluation log alone (a Hub log in place included); a failure throws. */
  async updateEvals(signal?: AbortSignal): Promise<void> {
    await this.evals?.update(signal);
    this.evalsError = undefined;
  }

  /** Section 8's figures of one run; undefined without an evaluation log. */
  evalSummary(): EvalSummary | undefined {
    return this.evals ? evalSummary(this.evals.episodes) : undefined;
  }

  /** Warnings about the evaluation log: unreadable, or lines skipped. */
  evalWarnings(): string[] {
    const e = this.evals;
    if (!e) return [];
    if (this.evalsError !== undefined) return [`${e.path}: cannot be read (${this.evalsError}); no evaluations`];
    return e.warnings();
  }

  /** Warnings about the metrics log, for the report. */
  metricsWarnings(): string[] {
    const m = this.metrics;
    if (!m) return [];
    const w: string[] = [];
    if (this.metricsError !== undefined)
      w.push(`${m.path}: cannot be read (${this.metricsError}); the figures come from the credit log alone`);
    if (m.skippedCount > 0)
      w.push(
        `${m.path}: skipped ${m.skippedCount} line(s): ${m.skippedLines
          .slice(0, 5)
          .map((s) => `line ${s.line} (${s.message})`)
          .join('; ')}`,
      );
    const d = m.duplicates();
    if (d.length > 0)
      w.push(
        `${m.path}: ${d.length} iteration(s) logged more than once, the later row wins: ${d
          .slice(0, 5)
          .map((x) => `${x.iteration} (lines ${x.lines.join(', ')})`)
          .join('; ')}`,
      );
    return w;
  }

  private cached: { key: string; value: FullReport & { curve: CurveRow[] } } | undefined;

  /** The report; computed again only when either log has changed since. */
  report(): (FullReport & { curve: CurveRow[] }) | undefined {
    if (!this.credit) return undefined;
    const key = `${this.credit.version}:${this.credit.skippedCount}:${this.credit.pendingTail}:${this.metrics?.version ?? -1}:${this.metrics?.skippedCount ?? -1}:${this.metricsError}:${this.evals?.version ?? -1}:${this.evals?.skippedCount ?? -1}:${this.evalsError}`;
    if (this.cached?.key === key) return this.cached.value;
    const table = this.metrics?.getTable();
    const full = computeReport(this.credit, [...this.metricsWarnings(), ...this.evalWarnings()], table);
    const value = { ...full, curve: trainingCurve(table, full.perIteration) };
    this.cached = { key, value };
    return value;
  }
}
