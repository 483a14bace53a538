/**
 * JSON as Python's `json` module writes it: standard JSON plus the bare tokens
 * `NaN`, `Infinity` and `-Infinity`. Those become the strings below so that nothing
 * is lost; `numberOf` turns them back into numbers.
 */

const NON_FINITE = /(?<![\w"])(-?Infinity|NaN)(?![\w"])/g;

export const NAN_TOKEN = '\u0000NaN';
export const POS_INF_TOKEN = '\u0000Infinity';
export const NEG_INF_TOKEN = '\u0000-Infinity';

/** Parses one JSON text; throws a SyntaxError with the position on failure. */
export function parseTolerant(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (first) {
    if (!/NaN|Infinity/.test(text)) throw first;
    const replaced = replaceOutsideStrings(text);
    return JSON.parse(replaced);
  }
}

function replaceOutsideStrings(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const q = text.indexOf('"', i);
    const plain = q < 0 ? text.slice(i) : text.slice(i, q);
    out += plain.replace(NON_FINITE, (m) => JSON.stringify(m === 'NaN' ? NAN_TOKEN : m === 'Infinity' ? POS_INF_TOKEN : NEG_INF_TOKEN));
    if (q < 0) break;
    // copy the string literal as is
    let j = q + 1;
    while (j < text.length) {
      const ch = text.charCodeAt(j);
      if (ch === 0x5c) j += 2;
      else if (ch === 0x22) break;
      else j++;
    }
    out += text.slice(q, j + 1);
    i = j + 1;
  }
  return out;
}

/** A number as logged: numbers, the non-finite tokens, and numeric booleans pass; anything else is undefined. */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === NAN_TOKEN) return NaN;
  if (v === POS_INF_TOKEN) return Infinity;
  if (v === NEG_INF_TOKEN) return -Infinity;
  return undefined;
}
