/**
 * A cue where a table scrolls sideways and hides columns: "more columns →" while some lie to the
 * right, "← more columns" while some lie to the left, nothing when all show.
 */

/** Which sides of a horizontally scrolling box hide content (a pixel of rounding is not a column). */
export function hiddenSides(scrollWidth: number, clientWidth: number, scrollLeft: number): { left: boolean; right: boolean } {
  return { left: scrollLeft > 1, right: scrollLeft + clientWidth < scrollWidth - 1 };
}

/** The cue's words for the hidden sides ('' when every column shows). */
export function cueText(s: { left: boolean; right: boolean }): string {
  if (s.left && s.right) return '← more columns on both sides, scroll sideways →';
  if (s.right) return 'more columns: scroll sideways →';
  if (s.left) return '← more columns: scroll back';
  return '';
}
