/**
 * Axis tick labels for the charts, without Intl.NumberFormat (Chart.js's default builds
 * one per chart and the first costs more than the rest of a chart): the fewest decimals
 * that write every tick of the axis exactly, the same for all of them; exponents for
 * very large or very small axes.
 */

/** Decimals (0..8) that write every tick value exactly, or null when exponents are better. */
export function tickDecimals(values: readonly number[]): number | null {
  const finite = values.filter((v) => Number.isFinite(v));
  const mag = finite.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  if (mag >= 1e6) return null;
  let d = 0;
  for (const v of finite) {
    while (d < 8 && Math.abs(Math.round(v * 10 ** d) / 10 ** d - v) > 1e-9 * Math.max(1, Math.abs(v))) d++;
  }
  // steps below 1e-4 (e.g. 0.00012, 0.00014) read better as exponents
  if (mag > 0 && d > 4 && mag < 1e-2) return null;
  return d;
}

/** The label of one tick, given all the ticks of its axis. */
export function tickLabel(value: number, values: readonly number[]): string {
  if (value === 0) return '0';
  const d = tickDecimals(values);
  if (d !== null) return value.toFixed(d);
  const finite = values.filter((v) => Number.isFinite(v) && v !== 0);
  // enough significant digits to tell neighbouring ticks apart
  const step = finite.length > 1 ? Math.abs(finite[1]! - finite[0]!) : Math.abs(value);
  const digits = Math.max(0, Math.min(6, Math.ceil(Math.log10(Math.abs(value) / (step || Math.abs(value)) + 1e-12))));
  return value.toExponential(digits);
}

/**
 * The y range for a series whose values differ only by float noise (0.4 and
 * 0.39999999999999997): the value +-5 % (+-1 around 0), so that a constant draws as a
 * flat line instead of an axis stretched over 1e-17. Undefined when the values really
 * differ, or there are none: the chart then scales itself. `floor`: what the quantity cannot go
 * below (a rate, a count: 0), where the range then starts (a rate always 0 draws on 0 to 1, not -1 to 1).
 */
export function flatRange(values: Iterable<number | null>, floor?: number): { min: number; max: number } | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return undefined;
  const mag = Math.max(Math.abs(lo), Math.abs(hi));
  if (hi - lo > 1e-9 * mag) return undefined;
  const mid = (lo + hi) / 2;
  const pad = mag === 0 ? 1 : mag * 0.05;
  const min = floor !== undefined && lo >= floor ? Math.max(floor, mid - pad) : mid - pad;
  return { min, max: mid + pad };
}
