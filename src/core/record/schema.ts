/**
 * The reference schema of docs/format.md (sections 2 and 5): reference names, their
 * aliases, and the resolution of a user field mapping into one lookup table.
 */

export type TrajectoryField = 'iteration' | 'group' | 'rollout' | 'task_id' | 'instruction' | 'reward' | 'A' | 'labeled' | 'turns';

export type TurnField = 'action' | 'candidates' | 'scores' | 'same' | 'done' | 'c' | 'A_t' | 'masked' | 'fallback';

export const TRAJECTORY_ALIASES: Readonly<Record<TrajectoryField, readonly string[]>> = {
  iteration: ['iter', 'rollout_id', 'step'],
  group: ['group_id', 'group_idx', 'prompt_idx'],
  rollout: ['rollout_idx', 'sample_idx', 'member'],
  task_id: ['task', 'id'],
  instruction: ['goal', 'user_request', 'prompt'],
  reward: ['score', 'R', 'outcome'],
  A: ['adv', 'advantage'],
  labeled: ['is_labeled'],
  turns: ['steps'],
};

export const TURN_ALIASES: Readonly<Record<TurnField, readonly string[]>> = {
  action: ['executed_action', 'action_text'],
  candidates: ['candidate_actions'],
  scores: ['rm_scores', 'r'],
  same: ['same_action', 'same_flags'],
  done: ['done_flags'],
  c: ['credit'],
  A_t: ['a_t', 'adjusted_advantage'],
  masked: ['credit_masked'],
  fallback: [],
};

/** Fields every credit log is expected to carry; the others are optional. */
export const REQUIRED_TRAJECTORY_FIELDS: readonly TrajectoryField[] = ['iteration', 'group', 'rollout', 'reward', 'A', 'turns'];
/** `A_t` is optional: a turn without it (every turn of a plain GRPO run) has `A_t` = `A` (format section 2). */
export const REQUIRED_TURN_FIELDS: readonly TurnField[] = ['action'];

/** The iteration key of the metrics log shares the trajectory aliases. */
export const METRICS_ITERATION_ALIASES: readonly string[] = ['iteration', ...TRAJECTORY_ALIASES.iteration];

/**
 * A user mapping: reference name -> the name used in the file. Keys may be
 * trajectory or turn reference names; `turn.<name>` may be used to disambiguate.
 */
export type FieldMapping = Readonly<Record<string, string>>;

export interface KeyTable<F extends string> {
  /** name in the file -> reference field */
  readonly byName: ReadonlyMap<string, F>;
  /** reference field -> every accepted name, mapped name first */
  readonly names: ReadonlyMap<F, readonly string[]>;
}

function buildTable<F extends string>(aliases: Readonly<Record<F, readonly string[]>>, mapping: FieldMapping, prefix: string): KeyTable<F> {
  const byName = new Map<string, F>();
  const names = new Map<F, string[]>();
  const fields = Object.keys(aliases) as F[];
  for (const field of fields) {
    const mapped = mapping[`${prefix}${field}`] ?? mapping[field];
    const list = [...(mapped !== undefined ? [mapped] : []), field, ...aliases[field]];
    names.set(field, list);
  }
  // Mapped names win over reference names and aliases; reference names over aliases.
  for (const field of fields) {
    const mapped = names.get(field)?.[0];
    if (mapped !== undefined && mapped !== field) byName.set(mapped, field);
  }
  for (const field of fields) if (!byName.has(field)) byName.set(field, field);
  for (const field of fields) for (const alias of aliases[field]) if (!byName.has(alias)) byName.set(alias, field);
  return { byName, names };
}

export interface SchemaTables {
  readonly trajectory: KeyTable<TrajectoryField>;
  readonly turn: KeyTable<TurnField>;
}

export function buildSchemaTables(mapping: FieldMapping = {}): SchemaTables {
  return {
    trajectory: buildTable(TRAJECTORY_ALIASES, mapping, 'trajectory.'),
    turn: buildTable(TURN_ALIASES, mapping, 'turn.'),
  };
}

/** The keys an eval log (section 8) adds: its `sample`, and `eval.<field>` to pick the eval log's field where names clash. */
const EVAL_MAPPING_KEYS: readonly string[] = [
  'sample',
  ...['iteration', 'task_id', 'instruction', 'sample', 'reward', 'turns'].map((k) => `eval.${k}`),
];

/** Checks a mapping read from a setting or a file; returns the problems found, one a line. */
export function validateMapping(value: unknown, source: string): { mapping: FieldMapping; problems: string[] } {
  const problems: string[] = [];
  const mapping: Record<string, string> = {};
  if (value === undefined || value === null) return { mapping, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { mapping, problems: [`${source}: the field mapping must be an object from reference name to the name in the file`] };
  }
  const known = new Set<string>([
    ...Object.keys(TRAJECTORY_ALIASES),
    ...Object.keys(TURN_ALIASES),
    ...Object.keys(TRAJECTORY_ALIASES).map((k) => `trajectory.${k}`),
    ...Object.keys(TURN_ALIASES).map((k) => `turn.${k}`),
    ...EVAL_MAPPING_KEYS,
  ]);
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!known.has(k))
      problems.push(
        `${source}: "${k}" is not a reference field name ` +
          `(known: ${[...Object.keys(TRAJECTORY_ALIASES), ...Object.keys(TURN_ALIASES)].join(', ')})`,
      );
    else if (typeof v !== 'string' || v.length === 0) problems.push(`${source}: the name for "${k}" must be a non-empty string`);
    else mapping[k] = v;
  }
  return { mapping, problems };
}

const MAX_LINES_KEPT = 5;

/** Accumulates which names were met for each reference field, for the schema check. */
export class SchemaObserver {
  readonly trajectoryNames = new Map<TrajectoryField, Map<string, number>>();
  readonly turnNames = new Map<TurnField, Map<string, number>>();
  readonly unknownTrajectoryKeys = new Map<string, number>();
  readonly unknownTurnKeys = new Map<string, number>();
  /** reference name (`reward`, `turn.masked`) -> records holding a value of the wrong type, and the first of their lines */
  readonly wrongTypes = new Map<string, { count: number; lines: number[] }>();
  records = 0;
  turns = 0;

  seeWrongType(name: string, line: number): void {
    let w = this.wrongTypes.get(name);
    if (!w) {
      w = { count: 0, lines: [] };
      this.wrongTypes.set(name, w);
    }
    w.count++;
    if (w.lines.length < MAX_LINES_KEPT) w.lines.push(line);
  }

  seeTrajectory(field: TrajectoryField, name: string): void {
    bump(this.trajectoryNames, field, name);
  }
  seeTurn(field: TurnField, name: string): void {
    bump(this.turnNames, field, name);
  }
  seeUnknown(level: 'trajectory' | 'turn', name: string, count = 1): void {
    const m = level === 'trajectory' ? this.unknownTrajectoryKeys : this.unknownTurnKeys;
    if (m.size < 200 || m.has(name)) m.set(name, (m.get(name) ?? 0) + count);
  }
  reset(): void {
    this.trajectoryNames.clear();
    this.turnNames.clear();
    this.unknownTrajectoryKeys.clear();
    this.unknownTurnKeys.clear();
    this.wrongTypes.clear();
    this.records = 0;
    this.turns = 0;
  }
}

function bump<F>(m: Map<F, Map<string, number>>, field: F, name: string): void {
  let inner = m.get(field);
  if (!inner) {
    inner = new Map();
    m.set(field, inner);
  }
  inner.set(name, (inner.get(name) ?? 0) + 1);
}

export interface FieldCheck {
  field: string;
  level: 'trajectory' | 'turn';
  required: boolean;
  /** names met in the file, with how many records/turns used each */
  foundAs: { name: string; count: number; alias: boolean }[];
  /** records (or turns) that lacked it */
  missing: number;
  /** records that held a value of the wrong type for it (read as missing) */
  wrongType: number;
  /** the first lines of those records */
  wrongTypeLines: number[];
}

export interface SchemaCheck {
  records: number;
  turns: number;
  fields: FieldCheck[];
  unknownTrajectoryKeys: { name: string; count: number }[];
  unknownTurnKeys: { name: string; count: number }[];
  /** required reference names that were never found */
  notFound: string[];
  /** optional reference names that were never found (not a problem) */
  optionalNotFound: string[];
}

export function schemaCheck(obs: SchemaObserver): SchemaCheck {
  const fields: FieldCheck[] = [];
  const notFound: string[] = [];
  const optionalNotFound: string[] = [];
  const add = <F extends string>(
    level: 'trajectory' | 'turn',
    all: readonly F[],
    req: readonly F[],
    seen: Map<F, Map<string, number>>,
    total: number,
  ): void => {
    for (const field of all) {
      const met = seen.get(field);
      const foundAs = met ? [...met].map(([name, count]) => ({ name, count, alias: name !== field })) : [];
      const count = foundAs.reduce((s, x) => s + x.count, 0);
      const wrong = obs.wrongTypes.get(level === 'turn' ? `turn.${field}` : field);
      fields.push({
        field,
        level,
        required: req.includes(field),
        foundAs,
        missing: Math.max(0, total - count),
        wrongType: wrong?.count ?? 0,
        wrongTypeLines: wrong?.lines ?? [],
      });
      if (foundAs.length === 0 && total > 0)
        (req.includes(field) ? notFound : optionalNotFound).push(level === 'turn' ? `turn.${field}` : field);
    }
  };
  add('trajectory', Object.keys(TRAJECTORY_ALIASES) as TrajectoryField[], REQUIRED_TRAJECTORY_FIELDS, obs.trajectoryNames, obs.records);
  add('turn', Object.keys(TURN_ALIASES) as TurnField[], REQUIRED_TURN_FIELDS, obs.turnNames, obs.turns);
  const list = (m: Map<string, number>): { name: string; count: number }[] =>
    [...m].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count);
  return {
    records: obs.records,
    turns: obs.turns,
    fields,
    unknownTrajectoryKeys: list(obs.unknownTrajectoryKeys),
    unknownTurnKeys: list(obs.unknownTurnKeys),
    notFound,
    optionalNotFound,
  };
}
