/** What a command prints, as one value: kept with the saved indexes (`Run.kept`) and printed again as it was. */
import { safeJson, writeErr, writeOut } from './safeText';

export interface Printed {
  /** stdout, before `safeText` */
  out: string;
  /** warning lines for stderr, before `safeText` */
  err: string[];
}

export function isPrinted(v: unknown): v is Printed {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o['out'] === 'string' && Array.isArray(o['err']) && o['err'].every((x) => typeof x === 'string');
}

/** `value` as `writeJson` prints it. */
export const jsonText = (value: unknown): string => safeJson(value) + '\n';

/** Prints it: the warnings, then stdout. */
export function emit(p: Printed): void {
  for (const e of p.err) writeErr(e);
  writeOut(p.out);
}
