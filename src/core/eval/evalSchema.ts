/** The names of `logs/eval_log.jsonl` (docs/format.md section 8): reference names, their aliases, and the user's mapping. */
import { TRAJECTORY_ALIASES, TURN_ALIASES } from '../record/schema';
import type { FieldMapping } from '../record/schema';

export type EvalField = 'iteration' | 'task_id' | 'instruction' | 'sample' | 'reward' | 'turns';

export const EVAL_ALIASES: Readonly<Record<EvalField, readonly string[]>> = {
  iteration: ['iter', 'step', 'checkpoint'],
  task_id: ['task', 'id'],
  instruction: TRAJECTORY_ALIASES.instruction,
  sample: ['sample_idx', 'attempt', 'seed'],
  reward: ['score', 'success', 'outcome'],
  turns: ['steps'],
};

/**
 * Every name accepted for each field, in the order looked for: `eval.<field>` of the mapping, then `<field>`, the reference name, the
 * aliases.
 */
export type EvalNames = Readonly<Record<EvalField, readonly string[]>>;

export function evalNames(mapping: FieldMapping = {}): EvalNames {
  const out = {} as Record<EvalField, string[]>;
  for (const f of Object.keys(EVAL_ALIASES) as EvalField[]) {
    const mapped = [mapping[`eval.${f}`], mapping[f]].filter((x): x is string => typeof x === 'string' && x.length > 0);
    out[f] = [...new Set([...mapped, f, ...EVAL_ALIASES[f]])];
  }
  return out;
}

/** The names of a turn's executed action, the user's `turn.action` or `action` mapping first. */
export function actionNames(mapping: FieldMapping = {}): readonly string[] {
  const mapped = [mapping['turn.action'], mapping['action']].filter((x): x is string => typeof x === 'string' && x.length > 0);
  return [...new Set([...mapped, 'action', ...TURN_ALIASES.action])];
}
