/** Small statistics helpers for the run report. */

/** Complementary error function, fractional error below 1.2e-7 (Numerical Recipes' erfcc). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Standard normal CDF. */
export function phi(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** Two-sided normal tail probability of a z statistic. */
export function twoSidedP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Sample standard deviation (n - 1); null below two values. */
export function sampleSd(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs)!;
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return Math.sqrt(s / (xs.length - 1));
}

/**
 * The same AUROC over finite scores, without the sort of an index array: each class's scores
 * sorted on their own (a typed array's native sort), then one merge that counts, for each
 * positive, the negatives below it and half those equal to it. The count is a whole or half
 * number, exact in a double, and equals the rank sum less nPos(nPos + 1)/2 of the ranked way:
 * the same figure. Undefined when a score is not finite (the ranked way decides then).
 */
function aurocFinite(scores: readonly number[], positive: readonly boolean[], nPos: number, nNeg: number): number | undefined {
  const pos = new Float64Array(nPos);
  const neg = new Float64Array(nNeg);
  let p = 0;
  let q = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (!Number.isFinite(s)) return undefined;
    if (positive[i]) pos[p++] = s;
    else neg[q++] = s;
  }
  pos.sort();
  neg.sort();
  let u = 0;
  let below = 0;
  for (let i = 0; i < nPos;) {
    const s = pos[i]!;
    let j = i;
    while (j < nPos && pos[j] === s) j++;
    while (below < nNeg && neg[below]! < s) below++;
    let equal = 0;
    while (below + equal < nNeg && neg[below + equal] === s) equal++;
    u += (j - i) * (below + equal / 2);
    i = j;
  }
  return u / (nPos * nNeg);
}

/** AUROC of `scores` for `positive`, ties counted half; null without both classes. */
export function auroc(scores: readonly number[], positive: readonly boolean[]): number | null {
  const n = scores.length;
  let nPos = 0;
  for (const p of positive) if (p) nPos++;
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  const fast = aurocFinite(scores, positive, nPos, nNeg);
  if (fast !== undefined) return fast;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let rankSumPos = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1]!] === scores[order[i]!]) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (positive[order[k]!]) rankSumPos += avgRank;
    i = j + 1;
  }
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}
