/**
 * Text for a terminal. Log lines, file names and server messages may hold control
 * characters (ESC sequences that set the window title or the clipboard, BEL, C1
 * controls such as CSI U+009B), bidi overrides (U+202E shows "evil" as "live") and
 * zero-width characters (two task names that look the same);
 * every character of those kinds is written as a visible escape instead.
 */

// C0 but newline and tab, DEL and C1, the bidi controls, and the invisible ones (zero-width
// space, joiners, word joiner, invisible operators, the zero-width no-break space, soft hyphen,
// Mongolian vowel separator), which hide or join text a reader should see
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

const escapeOf = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with every unsafe character as `\xNN` or `\uNNNN`; newlines and tabs are kept. */
export function safeText(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}

/** One line of text: like `safeText`, and newlines and tabs are escaped too. */
export function safeLine(text: string): string {
  return safeText(text).replace(/[\n\t]/g, escapeOf);
}

/**
 * JSON for a terminal: `JSON.stringify` leaves C1 and bidi controls raw inside strings; they
 * become `\uNNNN` escapes (still the same JSON).
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes text to stdout through `safeText`. */
export function writeOut(text: string): void {
  process.stdout.write(safeText(text));
}

/** Writes a value as JSON to stdout, one object and a newline. */
export function writeJson(value: unknown): void {
  process.stdout.write(safeJson(value) + '\n');
}

const SCHEME_CHAR = /[a-z0-9+.-]/i;
const LETTER = /[a-z]/i;
const USERINFO_END = /[/?#@\s"]/;

/**
 * A URL's user and password (`http://user:pw@host`) as `***`: an endpoint is printed without its
 * credentials. One pass over `text` (a regular expression for this backtracks quadratically on a
 * long run of letters): each character is looked at a bounded number of times.
 */
export function redactUrls(text: string): string {
  let out = '';
  let copied = 0;
  // a scheme is never looked for behind the previous "://": each character is walked back over once
  let floor = 0;
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', floor)) {
    let start = at;
    while (start > floor && SCHEME_CHAR.test(text[start - 1]!)) start--;
    while (start < at && !LETTER.test(text[start]!)) start++;
    let end = at + 3;
    while (end < text.length && !USERINFO_END.test(text[end]!)) end++;
    if (start < at && text[end] === '@') {
      out += `${text.slice(copied, at + 3)}***`;
      copied = end;
    }
    // the user part stops at the next "://" (its "/"), so it is read once too
    floor = at + 3;
  }
  return out + text.slice(copied);
}

/** Writes a message to stderr through `safeText`, any credentials in a URL redacted. */
export function writeErr(text: string): void {
  process.stderr.write(safeText(redactUrls(text)));
}

/** One value as JSON on one line, with the same escapes as `safeJson`. */
export function safeJsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
