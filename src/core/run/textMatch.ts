/**
 * Where a text search found its needle in one trajectory or eval episode, for the table's row:
 * the first field that holds it (instruction, a turn's action, a candidate, the task) and the
 * text around the hit. The search itself (query.ts textSearch, episodeQuery.ts) matches the raw
 * record; a hit only in a field the browser does not show has no place here (null).
 */
import type { TrajectoryView } from '../record/trajectory';
import type { EvalEpisodeView } from '../eval/evalLog';

export interface TextMatch {
  /** the field, in words: "instruction", "turn 3", "turn 3 candidate 1", "task" */
  where: string;
  /** the text before the hit (cut to `around` characters, then starting with "…") */
  before: string;
  hit: string;
  /** the text after the hit (cut likewise, then ending with "…") */
  after: string;
}

/** A field that may hold the needle: its name in words and its text. */
export type SearchedField = readonly [where: string, text: string | null | undefined];

/** The needle as a case-insensitive pattern (its characters taken literally). */
export function needlePattern(needle: string): RegExp {
  return new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu');
}

/** The first of `fields` that holds `needle` (ignoring case), with up to `around` characters each side of the hit. */
export function firstMatch(fields: Iterable<SearchedField>, needle: string, around = 24): TextMatch | null {
  if (needle.length === 0) return null;
  const re = needlePattern(needle);
  for (const [where, text] of fields) {
    if (!text) continue;
    const m = re.exec(text);
    if (!m) continue;
    const start = m.index;
    const end = start + m[0].length;
    const from = Math.max(0, start - around);
    const to = Math.min(text.length, end + around);
    return {
      where,
      before: (from > 0 ? '…' : '') + text.slice(from, start),
      hit: m[0],
      after: text.slice(end, to) + (to < text.length ? '…' : ''),
    };
  }
  return null;
}

/** A trajectory's fields in the order the detail shows them. */
export function* trajectoryFields(t: TrajectoryView): Generator<SearchedField> {
  yield ['instruction', t.instruction];
  for (const turn of t.turns) {
    yield [`turn ${turn.index}`, turn.action];
    for (const [k, c] of (turn.candidates ?? []).entries()) yield [`turn ${turn.index} candidate ${k}`, c];
  }
  yield ['task', t.taskId];
}

/** An eval episode's fields in the order its detail shows them. */
export function* episodeFields(e: EvalEpisodeView): Generator<SearchedField> {
  yield ['task', e.task];
  yield ['instruction', e.instruction];
  for (const turn of e.turns) yield [`turn ${turn.index}`, turn.action];
}
