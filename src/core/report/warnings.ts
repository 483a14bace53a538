/** The run report's warnings: what the figures leave out or found wrong, each naming the file and lines. */
import type { CreditIndex } from '../log/creditIndex';
import type { Acc } from './accumulate';

/** The warning naming the lines of the credit log that were skipped (the first five), or none. */
export function skippedWarnings(index: CreditIndex): string[] {
  if (index.skippedCount === 0) return [];
  const first = index.skippedLines
    .slice(0, 5)
    .map((s) => `line ${s.line} (${s.message})`)
    .join('; ');
  return [`${index.path}: skipped ${index.skippedCount} line(s) that are not records: ${first}${index.skippedCount > 5 ? '; ...' : ''}`];
}

function schemaWarnings(index: CreditIndex): string[] {
  const out: string[] = [];
  const check = index.schemaCheck();
  if (check.notFound.length > 0) out.push(`${index.path}: expected fields not found: ${check.notFound.join(', ')}`);
  for (const f of check.fields) {
    if (f.required && f.missing > 0 && f.foundAs.length > 0)
      out.push(
        `${index.path}: ${f.level === 'turn' ? 'turn.' : ''}${f.field} is missing from ` +
          `${f.missing} ${f.level === 'turn' ? 'turn' : 'record'}(s)`,
      );
  }
  for (const f of check.fields) {
    if (f.wrongType === 0) continue;
    const name = f.level === 'turn' ? `turn.${f.field}` : f.field;
    const more = f.wrongType > f.wrongTypeLines.length ? ', ...' : '';
    const lines = `line${f.wrongTypeLines.length > 1 ? 's' : ''} ${f.wrongTypeLines.join(', ')}${more}`;
    out.push(
      `${index.path}: ${name} holds a value of the wrong type (${WANTED[f.field] ?? 'see docs/format.md'}) ` +
        `in ${f.wrongType} record(s), read as missing: ${lines}`,
    );
  }
  return out;
}

function mismatchWarnings(total: Acc): string[] {
  const out: string[] = [];
  if (total.cMis > 0) out.push(`${total.cMis} credited turn(s) whose logged c differs from the recomputed credit by more than 1e-6`);
  if (total.aMis > 0) out.push(`${total.aMis} turn(s) whose logged A_t differs from A + beta*c by more than 1e-6`);
  if (total.sameMis > 0) out.push(`${total.sameMis} labeled turn(s) whose logged same-action flags disagree with the canonical matcher`);
  return out;
}

/** Every warning of the report, after `extra` (those of the other logs). */
export function reportWarnings(index: CreditIndex, total: Acc, extra: readonly string[]): string[] {
  const out = [...extra, ...skippedWarnings(index), ...schemaWarnings(index), ...mismatchWarnings(total)];
  if (index.pendingTail)
    out.push(`${index.path}: the last line has no newline yet (a record still being written); it is read once complete`);
  const dupCount = countDuplicateTrajectories(index);
  if (dupCount > 0) out.push(`${dupCount} trajectory key(s) (iteration, group, rollout) appear more than once`);
  return out;
}

/** What each field must hold, for the wrong-type warning. */
const WANTED: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  iteration: 'a whole number',
  group: 'a whole number',
  rollout: 'a whole number',
  task_id: 'a string',
  instruction: 'a string',
  reward: 'a number',
  A: 'a number',
  labeled: 'true or false',
  turns: 'an array of objects',
  action: 'a string',
  candidates: 'an array of strings',
  scores: 'an array of numbers or null',
  same: 'an array of true/false',
  done: 'an array of true/false',
  c: 'a number or null',
  A_t: 'a number',
  masked: 'true or false; only true is true',
  fallback: 'true or false; only true is true',
});

function countDuplicateTrajectories(index: CreditIndex): number {
  const c = index.columns;
  // a key packed into one number, sorted, is far cheaper than a set of strings on a large run
  const keys = new Float64Array(index.size);
  for (let i = 0; i < index.size; i++) {
    const it = c.iteration[i]!,
      g = c.group[i]!,
      r = c.rollout[i]!;
    if (!(inRange(it, 2 ** 20) && inRange(g, 2 ** 16) && inRange(r, 2 ** 16))) return countDuplicatesByText(index);
    keys[i] = it * 2 ** 32 + g * 2 ** 16 + r;
  }
  keys.sort();
  let dup = 0;
  for (let i = 1; i < keys.length; i++) if (keys[i] === keys[i - 1]) dup++;
  return dup;
}

/** A whole number in [0, bound). */
function inRange(v: number, bound: number): boolean {
  return v >= 0 && v < bound && (v | 0) === v;
}

function countDuplicatesByText(index: CreditIndex): number {
  const c = index.columns;
  const seen = new Set<string>();
  let dup = 0;
  for (let i = 0; i < index.size; i++) {
    const k = `${c.iteration[i]}:${c.group[i]}:${c.rollout[i]}`;
    if (seen.has(k)) dup++;
    else seen.add(k);
  }
  return dup;
}
