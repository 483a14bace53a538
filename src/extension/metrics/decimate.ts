/**
 * Largest-triangle-three-buckets over (x, y) with gaps: each run of finite values is
 * decimated on its own, in proportion to its length, so gaps survive decimation.
 */
export function decimate(xs: readonly number[], ys: ArrayLike<number>, threshold: number): { x: number[]; y: number[] } {
  const n = xs.length;
  if (threshold < 3 || n <= threshold) return { x: [...xs], y: Array.from({ length: n }, (_, i) => ys[i]!) };
  // runs of finite values
  const runs: [number, number][] = [];
  let s = -1;
  for (let i = 0; i <= n; i++) {
    const ok = i < n && Number.isFinite(ys[i]!);
    if (ok && s < 0) s = i;
    if (!ok && s >= 0) {
      runs.push([s, i]);
      s = -1;
    }
  }
  const finite = runs.reduce((a, [a0, a1]) => a + (a1 - a0), 0);
  const x: number[] = [];
  const y: number[] = [];
  runs.forEach(([a, b], k) => {
    if (k > 0) {
      x.push((xs[a - 1]! + xs[runs[k - 1]![1] - 1]!) / 2);
      y.push(NaN);
    }
    const len = b - a;
    const budget = Math.max(3, Math.round((threshold * len) / finite));
    lttb(xs, ys, a, b, budget, x, y);
  });
  return { x, y };
}

function lttb(xs: readonly number[], ys: ArrayLike<number>, a: number, b: number, budget: number, ox: number[], oy: number[]): void {
  const len = b - a;
  if (len <= budget) {
    for (let i = a; i < b; i++) {
      ox.push(xs[i]!);
      oy.push(ys[i]!);
    }
    return;
  }
  const every = (len - 2) / (budget - 2);
  let prev = a;
  ox.push(xs[a]!);
  oy.push(ys[a]!);
  for (let i = 0; i < budget - 2; i++) {
    const start = a + Math.floor(i * every) + 1;
    const end = Math.min(b - 1, a + Math.floor((i + 1) * every) + 1);
    const nStart = end;
    const nEnd = Math.min(b, a + Math.floor((i + 2) * every) + 1);
    let avgX = 0,
      avgY = 0;
    const cnt = Math.max(1, nEnd - nStart);
    for (let j = nStart; j < nEnd; j++) {
      avgX += xs[j]!;
      avgY += ys[j]!;
    }
    avgX /= cnt;
    avgY /= cnt;
    let best = start,
      bestArea = -1;
    for (let j = start; j < end; j++) {
      const area = Math.abs((xs[prev]! - avgX) * (ys[j]! - ys[prev]!) - (xs[prev]! - xs[j]!) * (avgY - ys[prev]!));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    ox.push(xs[best]!);
    oy.push(ys[best]!);
    prev = best;
  }
  ox.push(xs[b - 1]!);
  oy.push(ys[b - 1]!);
}
