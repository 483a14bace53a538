/**
 * The dashboard's Evaluation group (docs/format.md section 8): one chart of eval success per
 * checkpoint (the `success` of `rlrb evals --json`) with its 95% interval over the tasks,
 * each overlaid run that has evaluations drawn as its own line. Pure: no vscode.
 */
import { evalSummary, tallyTasks } from '../../core/eval/evalFigures';
import { Z95 } from '../../core/eval/verdict';
import type { EvalOutcome } from '../../core/eval/evalFigures';
import { sampleSd } from '../../core/report/stats';
import type { EvalPointsView, RunLine, SeriesView } from '../../shared/protocol/metrics';

export const EVAL_GROUP = 'Evaluation';
export const EVAL_SERIES = `${EVAL_GROUP}/eval success`;

/** One run on the dashboard with its eval episodes (undefined: it has no evaluation log). */
export interface EvalRun {
  root: string;
  episodes: readonly EvalOutcome[] | undefined;
  /** changes whenever `episodes` does (the log's `version`): its line is made again only then */
  version?: number;
}

/** A run's line of the chart: x = checkpoint, y = success, its tasks and interval. */
export interface EvalLine {
  x: number[];
  y: (number | null)[];
  evalPoints: EvalPointsView;
}

const clip = (v: number): number => Math.min(1, Math.max(0, v));

/**
 * Per checkpoint: success (the mean over tasks of each task's fraction of episodes with
 * reward > 0), its tasks, and success ± z * sd / sqrt(n) over those task successes, clipped
 * to [0, 1] (null with fewer than two tasks).
 */
export function evalLine(episodes: readonly EvalOutcome[]): EvalLine {
  const summary = evalSummary(episodes).iterations;
  const tally = tallyTasks(episodes);
  const lo: (number | null)[] = [];
  const hi: (number | null)[] = [];
  for (const it of summary) {
    const f = [...tally.get(it.iteration)!.values()].map((t) => t.succeeded / t.n);
    const sd = sampleSd(f);
    const half = sd === null ? null : (Z95 * sd) / Math.sqrt(f.length);
    lo.push(half === null ? null : clip(it.success - half));
    hi.push(half === null ? null : clip(it.success + half));
  }
  return {
    x: summary.map((i) => i.iteration),
    y: summary.map((i) => i.success),
    evalPoints: { tasks: summary.map((i) => i.tasks), samples: summary.map((i) => i.samples), lo, hi },
  };
}

/** Each episode list's line at its version: a dashboard's push (every resize, pin, overlay) does not walk 229,000 episodes again. */
const lines = new WeakMap<readonly EvalOutcome[], { version: number; line: EvalLine }>();

/** The line of `episodes`, kept while its version holds (made anew when it has none). */
function runLine(episodes: readonly EvalOutcome[], version: number | undefined): EvalLine {
  const kept = version === undefined ? undefined : lines.get(episodes);
  if (kept && kept.version === version) return kept.line;
  const line = evalLine(episodes);
  if (version !== undefined) lines.set(episodes, { version, line });
  return line;
}

function lineFields(l: EvalLine): Omit<RunLine, 'run' | 'metric'> {
  const n = l.x.length;
  return { x: l.x, y: l.y, total: n, gaps: 0, last: n > 0 ? { x: l.x[n - 1]!, y: l.y[n - 1]! } : null, evalPoints: l.evalPoints };
}

/**
 * The group's chart: the primary run first (`runs[0]`), then each overlaid run with
 * evaluations as a line; none when no run on the dashboard has an evaluation log.
 * `overlaid`: the dashboard shows several runs (the lines go in `lines`, as for any metric).
 */
export function evalSeries(runs: readonly EvalRun[], overlaid: boolean): SeriesView[] {
  const [primary, ...others] = runs;
  if (!primary || runs.every((r) => r.episodes === undefined)) return [];
  const own = primary.episodes ? lineFields(runLine(primary.episodes, primary.version)) : undefined;
  const base: SeriesView = own
    ? { name: EVAL_SERIES, group: EVAL_GROUP, ...own }
    : { name: EVAL_SERIES, group: EVAL_GROUP, x: [], y: [], total: 0, gaps: 0, last: null, absent: true };
  if (!overlaid) return [base];
  const lines: RunLine[] = others.flatMap((r) =>
    r.episodes ? [{ run: r.root, metric: EVAL_SERIES, ...lineFields(runLine(r.episodes, r.version)) }] : [],
  );
  const has = runs.filter((r) => r.episodes !== undefined).map((r) => r.root);
  return [{ ...base, lines, ...(has.length < runs.length ? { onlyIn: has } : {}) }];
}

export const isEvalSeries = (metric: string): boolean => metric === EVAL_SERIES;
