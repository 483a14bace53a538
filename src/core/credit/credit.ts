/** The credit of docs/format.md section 3, and the per-turn classification of section 4. */

export interface CreditParams {
  beta: number;
  tau: number;
}

export const DEFAULT_CREDIT: CreditParams = { beta: 0.4, tau: 20 };

/** Mismatch tolerance of section 4. */
export const EPS = 1e-6;

export interface TurnCreditInput {
  scores: readonly (number | null)[];
  same: readonly boolean[] | null;
  done: readonly boolean[] | null;
}

export interface CreditTerm {
  k: number;
  /** null when k is dropped (done candidate, or a missing score) */
  d: number | null;
  dropped: 'done' | 'no-score' | null;
}

export interface CreditResult {
  c: number;
  terms: CreditTerm[];
  /** size of the comparison set */
  compared: number;
}

/**
 * Recomputes c for one labeled turn. Candidates whose `done` flag is set are dropped;
 * so are candidates whose score is missing (null or not finite), and when the
 * executed candidate's own score is missing the comparison set is empty (c = 0).
 */
export function recomputeCredit(t: TurnCreditInput, p: CreditParams): CreditResult {
  const terms: CreditTerm[] = [];
  const s0 = t.scores[0];
  const s0ok = typeof s0 === 'number' && Number.isFinite(s0);
  let sum = 0;
  let n = 0;
  for (let k = 1; k < t.scores.length; k++) {
    if (t.done?.[k] === true) {
      terms.push({ k, d: null, dropped: 'done' });
      continue;
    }
    const sk = t.scores[k];
    const same = t.same?.[k] === true;
    if (same) {
      terms.push({ k, d: 0, dropped: null });
      sum += 0;
      n++;
      continue;
    }
    if (!s0ok || typeof sk !== 'number' || !Number.isFinite(sk)) {
      terms.push({ k, d: null, dropped: 'no-score' });
      continue;
    }
    const d = s0 - sk;
    terms.push({ k, d, dropped: null });
    sum += d;
    n++;
  }
  const c = n === 0 ? 0 : clip(sum / n / p.tau);
  return { c, terms, compared: n };
}

export function clip(x: number): number {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/** Section 4: scores[0] >= every non-null other score. */
export function executedIsArgmax(scores: readonly (number | null)[]): boolean {
  const s0 = scores[0];
  if (typeof s0 !== 'number' || !Number.isFinite(s0)) return false;
  for (let k = 1; k < scores.length; k++) {
    const s = scores[k];
    if (typeof s === 'number' && Number.isFinite(s) && s > s0) return false;
  }
  return true;
}

/** sign(A_t) != sign(A), A_t = 0 counting as a flip; only meaningful for A != 0. */
export function isSignFlip(A: number, At: number): boolean {
  if (At === 0) return true;
  return Math.sign(At) !== Math.sign(A);
}
