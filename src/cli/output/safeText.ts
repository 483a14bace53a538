/**
 * Text for a terminal. Log lines, file names and server messages may hold control
 * characters (ESC sequences that set the window title or the clipboard, BEL, C1
 * controls such as CSI U+009B) and bidi overrides (U+202E shows "evil" as "live");
 * every character of those kinds is written as a visible escape instead.
 */

// C0 but newline and tab, DEL and C1, and the bidi controls
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

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

/** A URL's user and password (`http://user:pw@host`) as `***`: an endpoint is printed without its credentials. */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s"]*@/gi, '$1***@');
}

/** Writes a message to stderr through `safeText`, any credentials in a URL redacted. */
export function writeErr(text: string): void {
  process.stderr.write(safeText(redactUrls(text)));
}

/** One value as JSON on one line, with the same escapes as `safeJson`. */
export function safeJsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
