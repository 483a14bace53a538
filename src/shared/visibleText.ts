/**
 * Bidi control characters made visible: log text that holds U+202E and friends could
 * render "evil" as "live". Each such character becomes a `<U+202E>` token.
 */

/** The bidi controls: embeddings and overrides, isolates, marks. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** One piece of a log string: plain text, or a bidi control shown by its code point. */
export interface VisiblePart {
  text: string;
  /** true: `text` is a token such as `<U+202E>` standing for one control character */
  control: boolean;
}

const token = (ch: string): string => `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;

/** Splits a string into text and visible control tokens (no control: one text part). */
export function visibleParts(s: string): VisiblePart[] {
  const out: VisiblePart[] = [];
  let last = 0;
  for (const m of s.matchAll(BIDI)) {
    if (m.index > last) out.push({ text: s.slice(last, m.index), control: false });
    out.push({ text: token(m[0]), control: true });
    last = m.index + m[0].length;
  }
  if (last < s.length || out.length === 0) out.push({ text: s.slice(last), control: false });
  return out;
}

/** The string with every bidi control replaced by its token. */
export function visibleText(s: string): string {
  return s.replace(BIDI, token);
}

const ONE = new RegExp(BIDI.source);

export function hasBidiControl(s: string): boolean {
  return ONE.test(s);
}
