/** Tick placement shared by the webviews' Chart.js line charts. */

/**
 * The x ticks without a round tick crowding a bound: with x from the data's first iteration (9),
 * the next round tick (10) would print over it ("910") in a narrow chart; the bound stays.
 */
export function spacedBounds<T extends { value: number }>(ticks: T[]): T[] {
  if (ticks.length < 4) return ticks;
  const step = ticks[2]!.value - ticks[1]!.value;
  const near = (a: T, b: T): boolean => Math.abs(b.value - a.value) < step / 3;
  const n = ticks.length;
  return ticks.filter((t, i) => !((i === 1 && near(ticks[0]!, t)) || (i === n - 2 && near(t, ticks[n - 1]!))));
}
