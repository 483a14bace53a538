/** `rlrb show <run> --iteration I --group G --rollout R`: one trajectory turn by turn, or as JSON with each turn's marks. */
import type { IndexOptions } from '../../core/log/creditIndex';
import type { TrajectoryView } from '../../core/record/trajectory';
import { recomputeCredit } from '../../core/credit/credit';
import { trajectoryTurnMarks, turnMarks } from '../../core/credit/turnMarks';
import type { TurnMarks } from '../../core/credit/turnMarks';
import { formatFigure as fmt } from '../../shared/format';
import { UsageError, numberFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { openRun } from '../open/openRun';
import { writeErr, writeJson, writeOut } from '../output/safeText';

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  const it = numberFlag(a, 'iteration', { int: true });
  const g = numberFlag(a, 'group', { int: true });
  const ro = numberFlag(a, 'rollout', { int: true });
  if (!path || a.positional.length > 2 || it === undefined || g === undefined || ro === undefined)
    throw new UsageError(`usage: rlrb ${SHOW.usage}`);
  const opened = await openRun(path, a);
  const opts = opened.options;
  const idx = opened.credit!;
  const row = idx.find(it, g, ro);
  if (row < 0) {
    writeErr(`rlrb: no trajectory with iteration ${it}, group ${g}, rollout ${ro} in ${idx.path}\n`);
    return 1;
  }
  const t = await idx.read(row);
  if (a.flags.has('json')) {
    writeJson(trajectoryJson(t, opts, idx.columns.line[row]));
    return 0;
  }
  writeOut(renderTrajectory(t, opts, `${idx.path}:${idx.columns.line[row]}`));
  return 0;
}

export const SHOW: Command = {
  usage:
    'show <run folder, credit log or hub:owner/name[@revision]> --iteration I --group G --rollout R [--json] ' +
    `${INDEX_USAGE} [--endpoint URL]`,
  flags: { iteration: 'string', group: 'string', rollout: 'string', json: 'boolean', endpoint: 'string', ...INDEX_FLAGS },
  run,
};

/** The marks of a turn in the text of `rlrb show`, in this order. */
const MARK_LABELS: readonly [keyof Omit<TurnMarks, 'recomputedC'>, string][] = [
  ['signFlip', 'sign flip'],
  ['fallback', 'fallback'],
  ['clipped', 'c clipped at +-1'],
  ['cMismatch', 'c mismatch'],
  ['aTMismatch', 'A_t mismatch'],
  ['executedIsArgmax', 'executed is argmax'],
  ['masked', 'masked'],
];

/**
 * `rlrb show --json`: the record as read, each turn with its marks (`BehaviourTurnMarks`: section 7's repeat, cycle, collapsed too)
 * beside its fields.
 */
export function trajectoryJson(t: TrajectoryView, opts: IndexOptions, line: number | undefined): unknown {
  const marks = trajectoryTurnMarks(t.turns, t.A, opts.credit, opts.match);
  return { ...t, turns: t.turns.map((u, i) => ({ ...u, ...marks[i] })), line };
}

const candidate = (c: unknown): string => (c !== undefined ? JSON.stringify(c) : '');

export function renderTrajectory(t: TrajectoryView, opts: IndexOptions, where: string): string {
  const out: string[] = [];
  out.push(`iteration ${t.iteration}  group ${t.group}  rollout ${t.rollout}  (${where})`);
  if (t.taskId) out.push(`task: ${JSON.stringify(t.taskId)}`);
  if (t.instruction) out.push(`instruction: ${JSON.stringify(t.instruction)}`);
  out.push(`reward ${t.reward}  A ${fmt(t.A)}  ${t.labeled ? 'labeled' : 'unlabeled'}  ${t.turns.length} turns`);
  for (const turn of t.turns) {
    const mk = turnMarks(turn, t.A, opts.credit, opts.match);
    out.push('');
    out.push(`turn ${turn.index}: ${JSON.stringify(turn.action)}`);
    if (turn.scores && turn.scores.length >= 2) {
      const rc = recomputeCredit({ scores: turn.scores, same: turn.same, done: turn.done }, opts.credit);
      turn.scores.forEach((s, k) => {
        const marks = [k === 0 ? 'executed' : '', turn.same?.[k] && k > 0 ? 'same' : '', turn.done?.[k] ? 'done (dropped)' : '']
          .filter(Boolean)
          .join(', ');
        const d = k === 0 ? '' : rc.terms[k - 1]?.d === null ? '  d —' : `  d ${fmt(rc.terms[k - 1]!.d, 3)}`;
        out.push(
          `  [${k}] ${s === null ? '   null' : s.toFixed(3).padStart(8)}${d}  ${marks}  ${candidate(turn.candidates?.[k])}`.trimEnd(),
        );
      });
      const state = mk.masked
        ? 'masked (terminal done)'
        : mk.fallback
          ? 'fallback'
          : mk.cMismatch
            ? `recomputed ${fmt(mk.recomputedC)}: differs`
            : 'recomputed: agrees';
      out.push(
        `  c ${turn.c === undefined ? 'absent' : fmt(turn.c)}  (${state})  ` +
          `A -> A_t: ${fmt(t.A)} -> ${turn.At === undefined ? 'absent' : fmt(turn.At)}`,
      );
    } else {
      out.push(`  A_t ${turn.At === undefined ? 'absent' : fmt(turn.At)}`);
    }
    const marks = MARK_LABELS.filter(([k]) => mk[k]).map(([, label]) => label);
    out.push(`  marks: ${marks.length > 0 ? marks.join(', ') : 'none'}`);
  }
  return out.join('\n') + '\n';
}
