/**
 * OpenWebRL tool-call syntax (docs/format.md section 2) and the canonical matcher
 * of the card (`OWRL_WS_CLICK_TOL`, `OWRL_WS_KEY_CASE`).
 */

export type ActionValue = number | string | boolean | null | ActionValue[];

export interface ParsedAction {
  name: string;
  /** positional arguments are keyed `#0`, `#1`, ... */
  args: Map<string, ActionValue>;
}

export interface MatchOptions {
  /** points match when |dx| <= clickTolerance and |dy| <= clickTolerance (0..1000 grid) */
  clickTolerance: number;
  /** key names compare case-insensitively */
  keyCaseInsensitive: boolean;
}

export const DEFAULT_MATCH: MatchOptions = { clickTolerance: 20, keyCaseInsensitive: true };

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isIdStart = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isId = (c: number): boolean => isIdStart(c) || isDigit(c);

/** A character-code parser: no slicing, no regular expressions on the hot path. */
class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && isWs(this.s.charCodeAt(this.i))) this.i++;
  }
  peek(): number {
    return this.i < this.s.length ? this.s.charCodeAt(this.i) : -1;
  }
  ident(dots = false): string | undefined {
    const start = this.i;
    if (!isIdStart(this.peek())) return undefined;
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i);
      if (isId(c) || (dots && c === 0x2e)) this.i++;
      else break;
    }
    return this.s.slice(start, this.i);
  }
}

/** The tool name of an action text, without parsing its arguments ('' when none). */
export function toolName(text: string): string {
  let i = 0;
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  const start = i;
  while (i < text.length && (isId(text.charCodeAt(i)) || text.charCodeAt(i) === 0x2e)) i++;
  return text.slice(start, i);
}

/** Parses `name(arg=value, ...)`; returns null for text that is not a tool call. */
export function parseAction(text: string): ParsedAction | null {
  const c = new Cursor(text);
  c.ws();
  const name = c.ident(true);
  if (name === undefined) return null;
  c.ws();
  if (c.peek() !== 0x28) return null;
  c.i++;
  const args = new Map<string, ActionValue>();
  let positional = 0;
  c.ws();
  if (c.peek() === 0x29) {
    c.i++;
  } else {
    for (;;) {
      c.ws();
      let key: string | undefined;
      const save = c.i;
      const id = c.ident();
      if (id !== undefined) {
        c.ws();
        if (c.peek() === 0x3d && c.s.charCodeAt(c.i + 1) !== 0x3d) {
          c.i++;
          key = id;
        } else c.i = save;
      }
      if (key === undefined) key = `#${positional++}`;
      const v = parseValue(c);
      if (v === undefined) return null;
      args.set(key, v);
      c.ws();
      const ch = c.peek();
      if (ch === 0x2c) {
        c.i++;
        c.ws();
        if (c.peek() === 0x29) {
          c.i++;
          break;
        }
        continue;
      }
      if (ch === 0x29) {
        c.i++;
        break;
      }
      return null;
    }
  }
  c.ws();
  return c.i === c.s.length ? { name, args } : null;
}

function parseValue(c: Cursor): ActionValue | undefined {
  c.ws();
  const ch = c.peek();
  if (ch === 0x22 || ch === 0x27) return parseString(c, ch);
  if (ch === 0x5b || ch === 0x28) {
    const close = ch === 0x5b ? 0x5d : 0x29;
    c.i++;
    const out: ActionValue[] = [];
    c.ws();
    if (c.peek() === close) {
      c.i++;
      return out;
    }
    for (;;) {
      const v = parseValue(c);
      if (v === undefined) return undefined;
      out.push(v);
      c.ws();
      const n = c.peek();
      if (n === 0x2c) {
        c.i++;
        c.ws();
        if (c.peek() === close) {
          c.i++;
          return out;
        }
        continue;
      }
      if (n === close) {
        c.i++;
        return out;
      }
      return undefined;
    }
  }
  if (isDigit(ch) || ch === 0x2d || ch === 0x2b || ch === 0x2e) {
    const start = c.i;
    c.i++;
    while (c.i < c.s.length) {
      const d = c.s.charCodeAt(c.i);
      if (isDigit(d) || d === 0x2e || d === 0x65 || d === 0x45 || ((d === 0x2d || d === 0x2b) && (c.s.charCodeAt(c.i - 1) | 0x20) === 0x65))
        c.i++;
      else break;
    }
    const n = Number(c.s.slice(start, c.i));
    return Number.isNaN(n) ? undefined : n;
  }
  const w = c.ident();
  if (w === undefined) return undefined;
  if (w === 'True' || w === 'true') return true;
  if (w === 'False' || w === 'false') return false;
  if (w === 'None' || w === 'null') return null;
  return w;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };

function parseString(c: Cursor, quote: number): string | undefined {
  c.i++;
  const start = c.i;
  // fast path: no escapes
  const end = c.s.indexOf(String.fromCharCode(quote), start);
  if (end >= 0 && c.s.lastIndexOf('\\', end) < start) {
    c.i = end + 1;
    return c.s.slice(start, end);
  }
  let out = '';
  while (c.i < c.s.length) {
    const ch = c.s.charCodeAt(c.i);
    if (ch === 0x5c) {
      const n = c.s[c.i + 1];
      if (n === undefined) return undefined;
      if (n === 'u' && /^[0-9a-fA-F]{4}$/.test(c.s.slice(c.i + 2, c.i + 6))) {
        out += String.fromCharCode(parseInt(c.s.slice(c.i + 2, c.i + 6), 16));
        c.i += 6;
        continue;
      }
      out += ESCAPES[n] ?? n;
      c.i += 2;
      continue;
    }
    if (ch === quote) {
      c.i++;
      return out;
    }
    out += c.s[c.i];
    c.i++;
  }
  return undefined;
}

function isPoint(v: ActionValue): v is number[] {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number';
}

function isKeyArg(name: string): boolean {
  return name === 'keys' || name === 'key';
}

function valuesMatch(argName: string, a: ActionValue, b: ActionValue, o: MatchOptions): boolean {
  if (isPoint(a) && isPoint(b)) {
    return Math.abs(a[0]! - b[0]!) <= o.clickTolerance && Math.abs(a[1]! - b[1]!) <= o.clickTolerance;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => valuesMatch(argName, x, b[i]!, o));
  }
  if (typeof a === 'string' && typeof b === 'string' && isKeyArg(argName) && o.keyCaseInsensitive) {
    return a.toLowerCase() === b.toLowerCase();
  }
  return a === b;
}

/** True when two action texts canonicalize to the same action. */
export function sameAction(a: string, b: string, o: MatchOptions = DEFAULT_MATCH): boolean {
  return new ActionMatcher(a, o).matches(b);
}

/** Matches many texts against one action, parsing that action once. */
export class ActionMatcher {
  private parsed: ParsedAction | null | undefined;
  private readonly name: string;

  constructor(
    readonly text: string,
    readonly options: MatchOptions = DEFAULT_MATCH,
  ) {
    this.name = toolName(text);
  }

  matches(other: string): boolean {
    if (other === this.text) return true;
    // different tool names never match; no need to parse
    if (this.name !== '' && toolName(other) !== this.name) return false;
    if (this.parsed === undefined) this.parsed = parseAction(this.text);
    const pb = parseAction(other);
    if (!this.parsed || !pb) return this.text.trim() === other.trim();
    return parsedMatch(this.parsed, pb, this.options);
  }
}

export function parsedMatch(pa: ParsedAction, pb: ParsedAction, o: MatchOptions): boolean {
  if (pa.name !== pb.name || pa.args.size !== pb.args.size) return false;
  for (const [k, v] of pa.args) {
    if (!pb.args.has(k)) return false;
    if (!valuesMatch(k, v, pb.args.get(k)!, o)) return false;
  }
  return true;
}

/** `done(...)` actions end an episode. */
export function isDoneAction(text: string): boolean {
  return /^\s*done\s*\(/.test(text);
}
