/**
 * Exponential moving average with debiasing, as TensorBoard and W&B smooth: gaps
 * (NaN) stay gaps and do not reset the average.
 */
export function smooth(values: readonly number[], weight: number): number[] {
  const out: number[] = new Array(values.length);
  let last = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) { out[i] = NaN; continue; }
    last = last * weight + (1 - weight) * v;
    n++;
    const debias = 1 - weight ** n;
    out[i] = weight === 0 ? v : last / debias;
  }
  return out;
}
