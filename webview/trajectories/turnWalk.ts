/** Walking an eval episode's turns (no DOM: the detail pane's keys call it). */

/** The next turn after `from` of a repeat or a cycle window (from the first again at the end), as `n` walks a trajectory's marks. */
export function nextEpisodeMark(turns: readonly { index: number; repeat: boolean; cycle: boolean }[], from: number): number | undefined {
  const marked = turns.filter((t) => t.repeat || t.cycle).map((t) => t.index);
  return marked.find((i) => i > from) ?? marked[0];
}
