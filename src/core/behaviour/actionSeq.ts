/**
 * A trajectory's executed actions as the tagger reads them: n actions, which are `done`
 * or `scroll`, and whether a_i ~ a_j by the canonical matcher (`ActionMatcher`, with a_i
 * as the matcher's action). A turn without an action text matches nothing and is
 * neither done nor a scroll.
 */
import { ActionMatcher, toolName } from '../credit/actions';
import type { MatchOptions } from '../credit/actions';

export interface ActionSeq {
  readonly length: number;
  /** the tool name is `done` */
  isDone(i: number): boolean;
  /** the tool name is `scroll` */
  isScroll(i: number): boolean;
  /** a_i ~ a_j */
  same(i: number, j: number): boolean;
}

/** Actions given as text (a trajectory read whole, an eval episode). */
export class StringActions implements ActionSeq {
  private readonly names: string[];
  private readonly matchers: (ActionMatcher | undefined)[] = [];

  constructor(
    private readonly texts: readonly (string | null)[],
    private readonly match: MatchOptions,
  ) {
    this.names = texts.map((t) => (t === null ? '' : toolName(t)));
  }

  get length(): number {
    return this.texts.length;
  }

  isDone(i: number): boolean {
    return this.texts[i] !== null && this.names[i] === 'done';
  }

  isScroll(i: number): boolean {
    return this.texts[i] !== null && this.names[i] === 'scroll';
  }

  same(i: number, j: number): boolean {
    const a = this.texts[i];
    const b = this.texts[j];
    if (a === null || a === undefined || b === null || b === undefined) return false;
    return (this.matchers[i] ??= new ActionMatcher(a, this.match)).matches(b);
  }
}

/** Per turn: bit 1 a turn of a repeat window, bit 2 of a cycle window (set by `actionWindows` when asked). */
export const MARK_REPEAT = 1;
export const MARK_CYCLE = 2;
