/** A typed array twice as long holding `a`'s values first: the byte readers' per-action scratch, grown as a record needs. */
export function doubled<T extends Int32Array | Float64Array | Uint8Array>(a: T): T {
  const out = new (a.constructor as new (n: number) => T)(a.length * 2);
  out.set(a);
  return out;
}
