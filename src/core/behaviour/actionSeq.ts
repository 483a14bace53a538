/**
 * A trajectory's executed actions as the tagger reads them: n actions, which are `done`
 * or `scroll` (their `key`), and whether a_i ~ a_j by the canonical matcher (`ActionMatcher`, with a_i
 * as the matcher's action). A turn without an action text matches nothing and is
 * neither done nor a scroll.
 */
import { parseAction, parsedMatch, toolName } from '../credit/actions';
import type { MatchOptions, ParsedAction } from '../credit/actions';

export interface ActionSeq {
  readonly length: number;
  /** a_i ~ a_j */
  same(i: number, j: number): boolean;
  /**
   * What the windows need of a_i in one call: `DONE_KEY`, `SCROLL_KEY`, `NO_KEY` (no text, or
   * a name only `same` can tell), else a number of its tool name: two different numbers are
   * two different names, so those two actions do not match (equal numbers say nothing).
   */
  key(i: number): number;
}

export const NO_KEY = -1;
export const DONE_KEY = -2;
export const SCROLL_KEY = -3;

/** The number of the tool name in b[s, e) for `ActionSeq.key` (0 or more; `ByteActions.push` computes the same as it reads the name). */
export function nameNumber(b: Uint8Array, s: number, e: number): number {
  let h = 0;
  for (let p = s; p < e; p++) h = (Math.imul(h, 31) + b[p]!) | 0;
  return h >>> 1;
}

/** `ActionSeq.key` of a text's tool name (names are ASCII: a character's code is its byte). */
function keyOfName(name: string): number {
  if (name === '') return NO_KEY;
  if (name === 'done') return DONE_KEY;
  if (name === 'scroll') return SCROLL_KEY;
  // nameNumber over the name's characters, each cut to a byte (a surrogate pair counts once, by its first half)
  let h = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    h = (Math.imul(h, 31) + (c & 0xff)) | 0;
    if (c >= 0xd800 && c < 0xdc00) {
      const d = name.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) i++;
    }
  }
  return h >>> 1;
}

/**
 * `new ActionMatcher(a).matches(b)` over the texts of one trajectory, each text parsed at
 * most once (a text is compared with the next two): the same steps in the same order
 * (identical texts match, different tool names do not, then the parsed actions; texts that
 * do not parse compare trimmed). A test holds it to `ActionMatcher` on every pair of a list.
 */
export class ParsedTexts {
  private readonly parsed: (ParsedAction | null | undefined)[] = [];
  private readonly names: (string | undefined)[] = [];

  constructor(private readonly match: MatchOptions) {}

  /** whether a text was read since the last reset (most records need none: setting a length is not free) */
  private used = false;

  /** Forgets the texts (a new trajectory). */
  reset(): void {
    if (!this.used) return;
    this.used = false;
    this.parsed.length = 0;
    this.names.length = 0;
  }

  private name(i: number, t: string): string {
    this.used = true;
    return (this.names[i] ??= toolName(t));
  }

  private parse(i: number, t: string): ParsedAction | null {
    this.used = true;
    let p = this.parsed[i];
    if (p === undefined) this.parsed[i] = p = parseAction(t);
    return p;
  }

  /** a (text i) ~ b (text j), a as the matcher's action. */
  matches(i: number, a: string, j: number, b: string): boolean {
    if (a === b) return true;
    const na = this.name(i, a);
    if (na !== '' && this.name(j, b) !== na) return false;
    const pa = this.parse(i, a);
    const pb = this.parse(j, b);
    if (!pa || !pb) return a.trim() === b.trim();
    return parsedMatch(pa, pb, this.match);
  }
}

/** Actions given as text (a trajectory read whole, an eval episode). */
export class StringActions implements ActionSeq {
  private readonly keys: number[];
  private readonly cells: ParsedTexts;

  constructor(
    private readonly texts: readonly (string | null)[],
    match: MatchOptions,
  ) {
    this.keys = texts.map((t) => (t === null ? NO_KEY : keyOfName(toolName(t))));
    this.cells = new ParsedTexts(match);
  }

  get length(): number {
    return this.texts.length;
  }

  key(i: number): number {
    return this.keys[i] ?? NO_KEY;
  }

  same(i: number, j: number): boolean {
    const a = this.texts[i];
    const b = this.texts[j];
    if (a === null || a === undefined || b === null || b === undefined) return false;
    return this.cells.matches(i, a, j, b);
  }
}

/** Per turn: bit 1 a turn of a repeat window, bit 2 of a cycle window (set by `actionWindows` when asked). */
export const MARK_REPEAT = 1;
export const MARK_CYCLE = 2;
