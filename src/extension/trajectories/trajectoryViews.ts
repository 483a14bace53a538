/** The trajectory browser's view models: table rows, one trajectory turn by turn, its group (pure; no vscode). */
import type { CreditIndex, TrajectoryRow } from '../../core/log/creditIndex';
import type { TrajectoryView, TurnView } from '../../core/record/trajectory';
import { recomputeSame, turnMarks } from '../../core/credit/turnMarks';
import type { TurnMarks } from '../../core/credit/turnMarks';
import type { MatchOptions } from '../../core/credit/actions';
import { sameAction, toolName } from '../../core/credit/actions';
import { recomputeCredit } from '../../core/credit/credit';
import type { CreditParams } from '../../core/credit/credit';
import type { GateGroup } from '../../core/report/report';
import type {
  GroupGateView,
  RowView,
  SiblingTurnView,
  SiblingView,
  TrajectoryDetailView,
  TurnDetailView,
} from '../../shared/protocol/trajectories';

const fin = (v: number): number | null => (Number.isFinite(v) ? v : null);
const finOrNull = (v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

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

/** core's marks for one turn: the rule the report counts and `rlrb show --json` prints. */
function marksOf(u: TurnView, A: number, p: CreditParams, m: MatchOptions): TurnMarks {
  return turnMarks(u, A, p, m);
}

function turnView(t: TrajectoryView, u: TurnView, p: CreditParams, m: MatchOptions): TurnDetailView {
  const scores = u.scores !== null && u.scores.length >= 2 ? u.scores : null;
  const same = effectiveSame(u, m);
  const rc = scores ? recomputeCredit({ scores, same, done: u.done }, p) : undefined;
  const k = marksOf(u, t.A, p, m);
  const c = finOrNull(u.c);
  const A = fin(t.A);
  return {
    index: u.index,
    action: u.action,
    kind: u.action === null ? '' : toolName(u.action),
    labeled: scores !== null,
    masked: u.masked,
    fallback: k.fallback,
    candidates: (scores ?? []).map((score, j) => {
      const term = j === 0 ? undefined : rc?.terms[j - 1];
      return {
        k: j,
        text: u.candidates?.[j] ?? (j === 0 ? u.action : null),
        score,
        same: j === 0 || same?.[j] === true,
        done: u.done?.[j] === true,
        d: term ? term.d : null,
        dropped: term ? term.dropped : null,
        isArgmax: j === 0 ? k.executedIsArgmax : false,
      };
    }),
    c,
    cRecomputed: k.recomputedC,
    At: finOrNull(u.At),
    expectedAt: A === null ? null : c !== null ? A + p.beta * c : A,
    cMismatch: k.cMismatch,
    aTMismatch: k.aTMismatch,
    signFlip: k.signFlip,
    clipped: k.clipped,
    executedIsArgmax: k.executedIsArgmax,
    extras: extrasText(u.extras),
  };
}

function siblingTurn(t: TrajectoryView, u: TurnView, p: CreditParams, m: MatchOptions): SiblingTurnView {
  const k = marksOf(u, t.A, p, m);
  return {
    index: u.index,
    action: u.action,
    kind: u.action === null ? '' : toolName(u.action),
    c: finOrNull(u.c),
    At: finOrNull(u.At),
    masked: u.masked,
    fallback: k.fallback,
    signFlip: k.signFlip,
    cMismatch: k.cMismatch,
    aTMismatch: k.aTMismatch,
  };
}

/** The first turn index where the rollouts' actions are not all the same action (canonical match); null if never. */
export function divergence(turnLists: readonly (readonly { action: string | null }[])[], m: MatchOptions): number | null {
  if (turnLists.length < 2) return null;
  const longest = Math.max(...turnLists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    const first = turnLists[0]![i]?.action;
    for (const l of turnLists.slice(1)) {
      const a = l[i]?.action;
      if (first === undefined || a === undefined || first === null || a === null) {
        if (first !== a) return i;
      } else if (!sameAction(first, a, m)) return i;
    }
  }
  return null;
}

/** Whether the group enters the gate, and its difference, from core's report (`GateGroup`s). */
export function groupGate(rows: readonly RowView[], gate: GateGroup | undefined): GroupGateView {
  if (gate) return { counts: true, diff: gate.diff, reason: null };
  const rewards = rows.map((r) => r.reward);
  const mixed = rewards.some((r) => r !== rewards[0]);
  return {
    counts: false,
    diff: null,
    reason: mixed
      ? 'it lacks a labeled succeeded or a labeled failed rollout with credited turns'
      : 'every rollout has the same reward (the gate needs a mixed group)',
  };
}

/** A sibling: its row in the index and the trajectory read from the log. */
export interface Sibling {
  row: number;
  t: TrajectoryView;
}

/**
 * One trajectory for the detail pane. `siblings` (its group, read by the caller) fill the
 * group view; `gateGroups` are the report's, when it has been computed.
 */
export function detailView(
  index: CreditIndex,
  row: number,
  t: TrajectoryView,
  siblings: readonly Sibling[] = [],
  gateGroups?: readonly GateGroup[],
): TrajectoryDetailView {
  const r = index.row(row);
  const { credit: p, match: m } = index.options;
  const group5 = index.groupRows(t.iteration, t.group).map((i) => rowView(index.row(i)));
  const sibs: SiblingView[] = siblings.map((s) => ({
    ...rowView(index.row(s.row)),
    turnList: s.t.turns.map((u) => siblingTurn(s.t, u, p, m)),
  }));
  const gate = gateGroups
    ? groupGate(
        group5,
        gateGroups.find((g) => g.iteration === t.iteration && g.group === t.group),
      )
    : null;
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
    siblings: sibs,
    divergeAt: divergence(
      siblings.map((s) => s.t.turns),
      m,
    ),
    gate,
    turns: t.turns.map((u) => turnView(t, u, p, m)),
  };
}
