/** The size limits of the MCP server's tool results and errors, and the cutting of long strings in a record. */
import { errorMessage } from '../../core/errorMessage';
import { redact } from '../../core/hub/config';
import { redactUrls, safeLine } from '../output/safeText';

/** A bad argument or a refused run: the tool answers `isError` with this one line, the session goes on. */
export class ToolError extends Error {}

/** The most characters of JSON a tool result holds (its text; `structuredContent` is the same value). */
export const MAX_RESULT_CHARS = 200_000;

/** `get_trajectory` with `detail: "full"`: the larger bound of its result. */
export const MAX_FULL_RESULT_CHARS = 1_000_000;

/** A string of a record longer than this is cut (`get_trajectory`, default detail). */
export const CUT_CHARS = 2_000;

/** `detail: "full"`: strings are cut at this length instead. */
export const FULL_CUT_CHARS = 100_000;

/** The marker that ends a cut string; the number of characters cut and the whole length follow it. */
export const CUT_MARKER = '…[cut by rlrb mcp:';

/** `s` cut to `max` characters with a visible marker saying how much was cut. */
export function cutString(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}${CUT_MARKER} ${s.length - max} more characters of ${s.length}]`;
}

/** `v` with every string longer than `max` cut (`cutString`), and the number of strings cut. */
export function cutStrings(v: unknown, max: number): { value: unknown; cut: number } {
  let cut = 0;
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') {
      if (x.length > max) cut++;
      return cutString(x, max);
    }
    if (Array.isArray(x)) return x.map(walk);
    if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return x;
  };
  return { value: walk(v), cut };
}

// DEL, C1, the bidi controls and the zero-width ones: JSON.stringify leaves them raw (C0 it escapes already)
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * The JSON text of a result, its invisible and bidi controls as `\uNNNN` escapes (the same JSON
 * value, shown as what it is), or a tool error when it is longer than `max` characters.
 */
export function boundedJson(value: unknown, max: number, hint: string): string {
  const text = JSON.stringify(value).replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (text.length > max) throw new ToolError(`the result is ${text.length} characters, over this tool's limit of ${max}; ${hint}`);
  return text;
}

/** A tool error's text is cut to this many characters (an argument can be megabytes long). */
export const MAX_ERROR_CHARS = 2_000;

/** The one-line text of a tool error: credentials redacted, then cut (redacting first, so a cut never leaves part of a token). */
export function errorText(e: unknown): string {
  // bounded before the redactions, which are linear but need not read megabytes
  const raw = errorMessage(e).slice(0, 16 * MAX_ERROR_CHARS);
  const text = safeLine(redact(redactUrls(raw), process.env['HF_TOKEN']));
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}… (cut)` : text;
}
