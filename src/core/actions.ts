/**
 * OpenWebRL tool-call syntax (run-format.md section 2) and the canonical matcher
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

class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
  peek(): string {
    return this.s[this.i] ?? '';
  }
}

/** Parses `name(arg=value, ...)`; returns null for text that is not a tool call. */
export function parseAction(text: string): ParsedAction | null {
  const c = new Cursor(text.trim());
  const m = /^([A-Za-z_][\w.]*)\s*\(/.exec(c.s);
  if (!m) return null;
  c.i = m[0].length;
  const args = new Map<string, ActionValue>();
  let positional = 0;
  c.ws();
  if (c.peek() === ')') {
    c.i++;
    c.ws();
    return c.i === c.s.length ? { name: m[1]!, args } : null;
  }
  for (;;) {
    c.ws();
    const kw = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(c.s.slice(c.i));
    let key: string;
    if (kw) {
      key = kw[1]!;
      c.i += kw[0].length;
    } else {
      key = `#${positional++}`;
    }
    const v = parseValue(c);
    if (v === undefined) return null;
    args.set(key, v);
    c.ws();
    const ch = c.peek();
    if (ch === ',') { c.i++; c.ws(); if (c.peek() === ')') { c.i++; break; } continue; }
    if (ch === ')') { c.i++; break; }
    return null;
  }
  c.ws();
  return c.i === c.s.length ? { name: m[1]!, args } : null;
}

function parseValue(c: Cursor): ActionValue | undefined {
  c.ws();
  const ch = c.peek();
  if (ch === '"' || ch === "'") return parseString(c, ch);
  if (ch === '[' || ch === '(') {
    const close = ch === '[' ? ']' : ')';
    c.i++;
    const out: ActionValue[] = [];
    c.ws();
    if (c.peek() === close) { c.i++; return out; }
    for (;;) {
      const v = parseValue(c);
      if (v === undefined) return undefined;
      out.push(v);
      c.ws();
      const n = c.peek();
      if (n === ',') { c.i++; c.ws(); if (c.peek() === close) { c.i++; return out; } continue; }
      if (n === close) { c.i++; return out; }
      return undefined;
    }
  }
  const num = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(c.s.slice(c.i));
  if (num) { c.i += num[0].length; return Number(num[0]); }
  const word = /^[A-Za-z_]\w*/.exec(c.s.slice(c.i));
  if (word) {
    c.i += word[0].length;
    const w = word[0];
    if (w === 'True' || w === 'true') return true;
    if (w === 'False' || w === 'false') return false;
    if (w === 'None' || w === 'null') return null;
    return w;
  }
  return undefined;
}

function parseString(c: Cursor, quote: string): string | undefined {
  c.i++;
  let out = '';
  while (c.i < c.s.length) {
    const ch = c.s[c.i]!;
    if (ch === '\\') {
      const n = c.s[c.i + 1];
      if (n === undefined) return undefined;
      const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };
      if (n === 'u' && /^[0-9a-fA-F]{4}$/.test(c.s.slice(c.i + 2, c.i + 6))) {
        out += String.fromCharCode(parseInt(c.s.slice(c.i + 2, c.i + 6), 16));
        c.i += 6;
        continue;
      }
      out += map[n] ?? n;
      c.i += 2;
      continue;
    }
    if (ch === quote) { c.i++; return out; }
    out += ch;
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
  if (a === b) return true;
  const pa = parseAction(a);
  const pb = parseAction(b);
  if (!pa || !pb) return a.trim() === b.trim();
  return parsedMatch(pa, pb, o);
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
