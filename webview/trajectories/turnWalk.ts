/** The detail's turns without the DOM: walking an eval episode's marks (the detail pane's keys), and what a turn's lines say. */

/** The next turn after `from` of a repeat or a cycle window (from the first again at the end), as `n` walks a trajectory's marks. */
export function nextEpisodeMark(turns: readonly { index: number; repeat: boolean; cycle: boolean }[], from: number): number | undefined {
  const marked = turns.filter((t) => t.repeat || t.cycle).map((t) => t.index);
  return marked.find((i) => i > from) ?? marked[0];
}

/** The fields of a turn the advantage line reads. */
export interface TurnAdvantage {
  labeled: boolean;
  At: number | null;
  aTMismatch: boolean;
  signFlip: boolean;
}

/**
 * Whether a turn shows its "A → A_t" line: a labeled turn always; an unlabeled one only when its A_t says something the
 * trajectory's A (shown once in the header) does not: a different value, a mismatch or a sign flip.
 */
export function showsAdvantage(t: TurnAdvantage, A: number | null): boolean {
  if (t.labeled || t.aTMismatch || t.signFlip) return true;
  if (t.At === null) return false;
  return A === null || t.At !== A;
}

/** The header's one line about unlabeled turns when their lines are left out: '' when none is. */
export function unlabeledNote(turns: readonly TurnAdvantage[], A: number | null): string {
  const quiet = turns.filter((t) => !showsAdvantage(t, A)).length;
  if (quiet === 0) return '';
  const which = quiet === turns.length ? 'Every turn is' : `${quiet} of ${turns.length} turns are`;
  return `${which} unlabeled with A_t = A (no credit): their A → A_t line is left out.`;
}
