/** Comparing a command's JSON with an independent reference's expected figures. */
import assert from 'node:assert/strict';

/** How far a number at `path` may be from the reference's `want`. */
export type Tolerance = (path: string, want: number) => number;

/** Every key of `want` in `got`: numbers within `tol`, arrays element by element, nulls and the rest exactly. */
export function nearJson(got: unknown, want: unknown, path: string, tol: Tolerance): void {
  if (typeof want === 'number') {
    assert.equal(typeof got, 'number', `${path}: ${String(got)} != ${want}`);
    assert.ok(Math.abs((got as number) - want) <= tol(path, want), `${path}: ${String(got)} != ${want}`);
  } else if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), path);
    assert.equal((got as unknown[]).length, want.length, `${path}.length`);
    want.forEach((w, i) => nearJson((got as unknown[])[i], w, `${path}[${i}]`, tol));
  } else if (want !== null && typeof want === 'object') {
    assert.ok(got !== null && typeof got === 'object', `${path}: ${String(got)}`);
    for (const [k, w] of Object.entries(want)) nearJson((got as Record<string, unknown>)[k], w, `${path}.${k}`, tol);
  } else assert.equal(got, want, path);
}
