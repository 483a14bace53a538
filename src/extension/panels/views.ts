/** Builds the webviews' plain view models from the engine's objects (pure; no vscode). */
import type { CreditIndex, TrajectoryRow } from '../../core/log/creditIndex';
import type { TrajectoryCore, TrajectoryView, TurnView } from '../../core/record/trajectory';
import { summarize } from '../../core/record/trajectory';
import { recomputeSame } from '../../core/credit/turnMarks';
import type { MatchOptions } from '../../core/credit/actions';
import { recomputeCredit, executedIsArgmax } from '../../core/credit/credit';
import type { CreditParams } from '../../core/credit/credit';
import type { RowView, TrajectoryDetailView, TurnDetailView } from '../../shared/protocol/trajectories';

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

function extrasText(o: Record<string, unknown>): string | null {
  return Object.keys(o).length === 0 ? null : JSON.stringify(o, null, 1);
}

/** Same-action flags as the engine's summary uses them: logged, else recomputed from the candidate texts. */
function effectiveSame(u: TurnView, m: MatchOptions): boolean[] | null {
  return u.same ?? u.sameRecomputed ?? recomputeSame(u.candidates, m);
}

/**
 * Whether this turn's logged c and A_t disagree with their recomputation: the engine's
 * own per-trajectory summary run on the one turn, so the detail marks exactly the turns
 * the report counts (same tolerance, same rules for masked, fallback and absent values).
 */
function turnChecks(t: TrajectoryView, u: TurnView, p: CreditParams, m: MatchOptions): { cMismatch: boolean; aTMismatch: boolean } {
  const core: TrajectoryCore = { ...t, turns: [u], missing: 0 };
  const s = summarize(core, p, m);
  return { cMismatch: s.cMismatches > 0, aTMismatch: s.aTMismatches > 0 };
}

function turnView(t: TrajectoryView, u: TurnView, p: CreditParams, m: MatchOptions): TurnDetailView {
  const scores = u.scores !== null && u.scores.length >= 2 ? u.scores : null;
  const same = effectiveSame(u, m);
  const rc = scores ? recomputeCredit({ scores, same, done: u.done }, p) : undefined;
  const argmax = scores !== null && executedIsArgmax(scores);
  const c = typeof u.c === 'number' && Number.isFinite(u.c) ? u.c : null;
  const A = fin(t.A);
  return {
    index: u.index,
    action: u.action,
    labeled: scores !== null,
    masked: u.masked,
    fallback: u.fallback,
    candidates: (scores ?? []).map((score, k) => {
      const term = k === 0 ? undefined : rc?.terms[k - 1];
      return {
        k,
        text: u.candidates?.[k] ?? (k === 0 ? u.action : null),
        score,
        same: k === 0 || same?.[k] === true,
        done: u.done?.[k] === true,
        d: term ? term.d : null,
        dropped: term ? term.dropped : null,
        isArgmax: k === 0 ? argmax : false,
      };
    }),
    c,
    cRecomputed: rc && !u.masked && !u.fallback ? rc.c : null,
    At: u.At !== undefined && Number.isFinite(u.At) ? u.At : null,
    expectedAt: A === null ? null : c !== null ? A + p.beta * c : A,
    ...turnChecks(t, u, p, m),
    extras: extrasText(u.extras),
  };
}

export function detailView(index: CreditIndex, row: number, t: TrajectoryView): TrajectoryDetailView {
  const r = index.row(row);
  const { credit: p, match: m } = index.options;
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
    turns: t.turns.map((u) => turnView(t, u, p, m)),
  };
}
