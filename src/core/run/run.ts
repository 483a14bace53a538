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
import { fileStates, keptOrCompute } from '../cache/keptFigures';
import type { FileState, KeptKey, StatesOf } from '../cache/keptFigures';
import { keepReport, loadKeptReport, steadyStates } from '../cache/keptReport';
import { keptAt } from '../cache/keptAt';
import type { IndexStore } from '../log/indexStore';

export class Run {
  readonly credit: CreditIndex | undefined;
  readonly metrics: MetricsIndex | undefined;
  /** the checkpoint evaluations (docs/format.md section 8), when the run has an evaluation log */
  readonly evals: EvalLog | undefined;
  /** where finished figures are kept (`kept`): the saved-index store of a local run */
  private readonly store: IndexStore | undefined;

  constructor(
    readonly location: RunLocation,
    readonly options: IndexOptions = DEFAULT_INDEX_OPTIONS,
    engine: IndexEngine = {},
  ) {
    const remote = location.remote;
    // a Hub run's files are the owner's partials, not the logs: nothing is kept for it
    this.store = remote ? undefined : engine.store;
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

  /** The files this run's figures come from: the credit, metrics and evaluation logs (undefined: none). */
  get logPaths(): (string | undefined)[] {
    return [this.location.creditLog, this.location.metricsLog, this.location.evalLog];
  }

  /** No log failed to read at the last update: figures computed now may be kept. */
  get readCleanly(): boolean {
    return this.metricsError === undefined && this.evalsError === undefined;
  }

  /**
   * Figures of this run kept with its saved indexes (src/core/cache/keptFigures.ts): the kept
   * value of `kind` computed with `withKey` and these options while the logs are unchanged, else
   * `compute()` (which reads the logs itself), kept for next time.
   */
  kept<T>(kind: string, withKey: unknown, valid: (v: unknown) => v is T, compute: () => Promise<T>, states?: StatesOf): Promise<T> {
    const key = { kind, paths: this.logPaths, with: { options: this.options, root: this.location.root, with: withKey } };
    return keptOrCompute(this.store, key, valid, compute, () => this.readCleanly, states);
  }

  /** Like `kept`, for figures of two runs (a comparison): keyed by both runs' logs, kept in `a`'s store. */
  static keptAcross<T>(
    a: Run,
    b: Run,
    kind: string,
    withKey: unknown,
    valid: (v: unknown) => v is T,
    compute: () => Promise<T>,
    states?: StatesOf,
  ): Promise<T> {
    const key = {
      kind,
      paths: [...a.logPaths, ...b.logPaths],
      with: { options: [a.options, b.options], roots: [a.location.root, b.location.root], with: withKey },
    };
    return keptOrCompute(a.store, key, valid, compute, () => a.readCleanly && b.readCleanly, states);
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
    const key = this.store && this.credit && this.keepsReport ? this.reportKeptKey() : undefined;
    const before = key ? await fileStates(key.paths) : undefined;
    this.updatedStates = undefined;
    // the credit log first: a large one's worker threads start before the other logs are parsed on
    // this thread; its failure is held (so it is never left unhandled meanwhile) and thrown below
    const credit = this.credit?.update(signal).then(
      () => undefined,
      (e: unknown) => ({ failure: e }),
    );
    await this.credit?.started();
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
    const [failed] = await Promise.all([credit, metrics, evals]);
    if (failed) throw failed.failure;
    if (key && before) await this.lookUpKeptReport(key, before);
  }

  /** Whether `report()` uses and keeps a report kept with the saved indexes (the CLI keeps what it prints instead). */
  keepsReport = true;
  /** How the last report came: computed, or kept with the saved indexes (`kept`). */
  reportSource: 'computed' | 'kept' | undefined;
  /** the logs' states at the last update, when they held still while read and nothing failed: a report computed for them may be kept */
  private steady: FileState[] | undefined;

  private reportKeptKey(): KeptKey {
    return { kind: 'run-report', paths: this.logPaths, with: { options: this.options, root: this.location.root } };
  }

  /** After an update: the kept report of these logs, if there is one and they held still while read. */
  private async lookUpKeptReport(key: KeptKey, before: FileState[]): Promise<void> {
    this.steady = undefined;
    const states = this.readCleanly ? await steadyStates(key, before) : undefined;
    this.updatedStates = states;
    if (!states || !this.store) return;
    const rkey = this.reportKey();
    if (this.cached?.key === rkey) return;
    const kept = await loadKeptReport(this.store, key, states);
    if (kept) {
      this.cached = { key: rkey, value: kept, source: 'kept' };
      return;
    }
    this.steady = states;
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

  private cached: { key: string; value: FullReport & { curve: CurveRow[] }; source: 'computed' | 'kept' } | undefined;

  private reportKey(): string {
    const credit = this.credit;
    const { metrics, evals } = this;
    return [
      credit?.version,
      credit?.skippedCount,
      credit?.pendingTail,
      metrics?.version ?? -1,
      metrics?.skippedCount ?? -1,
      this.metricsError,
      evals?.version ?? -1,
      evals?.skippedCount ?? -1,
      this.evalsError,
    ].join(':');
  }

  /**
   * The report; computed again only when either log has changed since. With a store, a report
   * kept for these very logs (looked up by `update`) is used, and one computed is kept.
   */
  report(): (FullReport & { curve: CurveRow[] }) | undefined {
    if (!this.credit) return undefined;
    const key = this.reportKey();
    if (this.cached?.key === key) {
      this.reportSource = this.cached.source;
      return this.cached.value;
    }
    const table = this.metrics?.getTable();
    const full = computeReport(this.credit, [...this.metricsWarnings(), ...this.evalWarnings()], table);
    const value = { ...full, curve: trainingCurve(table, full.perIteration) };
    this.cached = { key, value, source: 'computed' };
    this.reportSource = 'computed';
    const steady = this.steady;
    this.steady = undefined;
    if (steady && this.store) this.keeping = keepReport(this.store, this.reportKeptKey(), steady, value).catch(() => undefined);
    return value;
  }

  /** The last report being kept (tests and the CLI wait for it; nothing else needs to). */
  keeping: Promise<void> | undefined;

  /**
   * The logs' states at the last update when they held still while read and nothing failed to
   * read (undefined otherwise, or without a store): figures computed from the index now are
   * figures of logs in exactly these states.
   */
  updatedStates: FileState[] | undefined;
  private readonly memo = new Map<string, { version: string; value: unknown }>();
  /** How the last `figures` call was answered (tests and benches read it). */
  figuresSource: 'memory' | 'kept' | 'computed' | undefined;

  /**
   * Figures of this run computed from its index and logs as of the last update (section 7's
   * tags, say): the same value again while no log changed (held in memory), else the value
   * kept with the saved indexes for these very logs and `withKey`, else `compute()`, kept for
   * next time (when its JSON gives back the same value). The extension's panels ask for them
   * on every open, so that an open of an unchanged run no longer grows with the run.
   */
  async figures<T>(kind: string, withKey: unknown, valid: (v: unknown) => v is T, compute: () => T | Promise<T>): Promise<T> {
    const name = `${kind}:${JSON.stringify(withKey)}`;
    const version = this.reportKey();
    const held = this.memo.get(name);
    if (held?.version === version && valid(held.value)) {
      this.figuresSource = 'memory';
      return held.value;
    }
    const key = { kind: `run-${kind}`, paths: this.logPaths, with: { options: this.options, root: this.location.root, with: withKey } };
    const got = await keptAt(this.store, key, this.updatedStates, valid, compute);
    // the logs changed while it was computed: not held either
    if (this.reportKey() === version) this.memo.set(name, { version, value: got.value });
    this.figuresSource = got.source;
    return got.value;
  }

  private static readonly heldPairs = new WeakMap<Run, WeakMap<Run, Map<string, { version: string; value: unknown }>>>();

  /**
   * Figures of two runs held in memory while neither run's logs change (no kept entry: what a
   * presenter makes of a kept comparison, say, too large to keep on disk); `compute()` otherwise.
   */
  static heldAcross<T>(a: Run, b: Run, kind: string, compute: () => T): T {
    let byB = Run.heldPairs.get(a);
    if (!byB) Run.heldPairs.set(a, (byB = new WeakMap()));
    let held = byB.get(b);
    if (!held) byB.set(b, (held = new Map<string, { version: string; value: unknown }>()));
    const version = `${a.reportKey()}|${b.reportKey()}`;
    const h = held.get(kind);
    if (h?.version === version) return h.value as T;
    const value = compute();
    held.set(kind, { version, value });
    return value;
  }

  /**
   * Like `figures`, for figures of two runs (a comparison, computed by `compute` from both as
   * of their last updates): keyed by both runs' logs, kept in `a`'s store; no memory (the
   * caller holds its result).
   */
  static async figuresAcross<T>(
    a: Run,
    b: Run,
    kind: string,
    withKey: unknown,
    valid: (v: unknown) => v is T,
    compute: () => Promise<T>,
  ): Promise<{ value: T; source: 'kept' | 'computed' }> {
    const key = {
      kind: `runs-${kind}`,
      paths: [...a.logPaths, ...b.logPaths],
      with: { options: [a.options, b.options], roots: [a.location.root, b.location.root], with: withKey },
    };
    const states = a.updatedStates && b.updatedStates ? [...a.updatedStates, ...b.updatedStates] : undefined;
    return keptAt(a.store, key, states, valid, compute);
  }
}
