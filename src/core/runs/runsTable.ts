/**
 * The runs table: one row a run, each row's figures kept with the run's saved indexes (a second
 * open of unchanged logs reads none of them), the verdict against the baseline kept for the pair.
 */
import { errorDetail } from '../errorMessage';
import { Run } from '../run/run';
import { statesOnce } from '../cache/keptFigures';
import type { StatesOf } from '../cache/keptFigures';
import { isRunFigures, runFigures } from './runFigures';
import type { RunFigures } from './runFigures';
import { isVerdict, verdictOf } from './verdict';
import type { Verdict } from './verdict';

/** A run of the table, located but not necessarily read. */
export interface TableRun {
  /** what the user named it by (a path or a hub: ref) */
  name: string;
  run: Run;
  /** reads its credit and metrics logs (once, however often called) */
  read(): Promise<void>;
  /** its Hub card's text, for settings its logs do not state */
  card?: () => Promise<string | undefined>;
}

export type RunsRow = { run: string; root: string; baseline: boolean; verdict: Verdict | null } & RunFigures;

export interface RunsTable {
  /** the baseline's name, when one was picked */
  baseline: string | null;
  runs: RunsRow[];
  /** one line each: an evaluation log that could not be read */
  warnings: string[];
}

/** How many runs are opened at once: their indexing shares the machine's cores. */
const AT_ONCE = 4;

async function inTurn<T, R>(items: readonly T[], f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await f(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
  return out;
}

/** Reads the evaluation log (a Hub one is fetched only when asked); a failure is a warning and no evaluation. */
async function readEvals(t: TableRun, warnings: string[]): Promise<void> {
  if (!t.run.evals) return;
  try {
    await t.run.updateEvals();
  } catch (e) {
    t.run.evalsError = errorDetail(e);
    warnings.push(`${t.name}: ${t.run.evals.path}: cannot be read (${t.run.evalsError}); no evaluations`);
  }
}

function figuresOf(t: TableRun, warnings: string[], states: StatesOf): Promise<RunFigures> {
  return t.run.kept(
    'runs-row',
    {},
    isRunFigures,
    async () => {
      await t.read();
      await readEvals(t, warnings);
      return runFigures(t.run, t.card ? await t.card() : undefined);
    },
    states,
  );
}

function verdictAgainst(t: TableRun, base: TableRun, warnings: string[], states: StatesOf): Promise<Verdict | null> {
  if (!t.run.evals || !base.run.evals) return Promise.resolve(null);
  return Run.keptAcross(
    t.run,
    base.run,
    'runs-verdict',
    {},
    isVerdict,
    async () => {
      await Promise.all([readEvals(t, warnings), readEvals(base, warnings)]);
      if (t.run.evalsError !== undefined || base.run.evalsError !== undefined) return null;
      return verdictOf(t.run.evals?.episodes, base.run.evals?.episodes);
    },
    states,
  );
}

/** The table of `runs`; `baseline` (one of them, or another run) is the run each verdict is against. */
export async function runsTable(runs: readonly TableRun[], baseline?: TableRun): Promise<RunsTable> {
  const warnings: string[] = [];
  // each log's state is taken once for every lookup: a row's and its verdict's, every verdict's baseline
  const states = statesOnce();
  const rows = await inTurn(runs, async (t): Promise<RunsRow> => {
    const figures = await figuresOf(t, warnings, states);
    const isBase = baseline !== undefined && (t === baseline || t.run.location.root === baseline.run.location.root);
    const verdict = baseline && !isBase ? await verdictAgainst(t, baseline, warnings, states) : null;
    return { run: t.name, root: t.run.location.root, baseline: isBase, verdict, ...figures };
  });
  return { baseline: baseline?.name ?? null, runs: rows, warnings: [...new Set(warnings)] };
}
