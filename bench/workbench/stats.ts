/** The median, min and max of a figure's samples (NaN when there are none). */
export function stats(xs: readonly number[]): { med: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { med: s[s.length >> 1] ?? NaN, min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN };
}
