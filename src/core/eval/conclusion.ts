/**
 * Section 8's conclusion of a paired evaluation: "better" when the whole 95% interval of A - B is
 * above 0, "worse" when it is below, else (a null interval too) "inconclusive".
 */
export type Conclusion = 'better' | 'worse' | 'inconclusive';

export function conclusionOf(ci95: readonly [number, number] | null): Conclusion {
  if (ci95 === null) return 'inconclusive';
  if (ci95[0] > 0) return 'better';
  if (ci95[1] < 0) return 'worse';
  return 'inconclusive';
}
