/**
 * Exponential moving average with debiasing, as TensorBoard and W&B smooth: gaps
 * (NaN) stay gaps and do not reset the average. Written as a step towards each value
 * (s += (v - s) * (1 - w) / (1 - w^n), the same average) so that a constant series
 * stays exactly constant: the ratio form (EMA / (1 - w^n)) gave 0.39999999999999997
 * for a run of 0.4, and a chart scaled to that noise drew a constant as a zigzag.
 */
export function smooth(values: readonly number[], weight: number): number[] {
  const out = new Array<number>(values.length);
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) {
      out[i] = NaN;
      continue;
    }
    n++;
    s = n === 1 || weight === 0 ? v : s + ((v - s) * (1 - weight)) / (1 - weight ** n);
    out[i] = s;
  }
  return out;
}
