/** The per-turn marks (core's turnMarks, computed by the host): icon, colour and word, and their legend. */
import type { TurnDetailView } from '../../src/shared/protocol/trajectories';
import type { TagName } from '../../src/shared/shapes';
import { h } from '../common';

type MarkKey =
  'signFlip' | 'fallback' | 'clipped' | 'cMismatch' | 'aTMismatch' | 'executedIsArgmax' | 'masked' | 'repeat' | 'cycle' | 'collapsed';
/** A turn's marks as the wire carries them (the booleans of core's `TurnMarks`). */
export type Marked = Pick<TurnDetailView, MarkKey>;

interface MarkDef {
  key: MarkKey;
  icon: string;
  cls: string;
  label: string;
  tip: string;
  /** the bit of the table's flags filter that selects rows with this mark */
  flag?: number;
  /** the behaviour tag whose `tag:` filter selects rows with this mark */
  tag?: TagName;
}

export const MARKS: readonly MarkDef[] = [
  { key: 'signFlip', icon: 'arrow-swap', cls: 'mk-flip', label: 'sign flip', tip: 'A_t has the other sign than A', flag: 1 },
  { key: 'fallback', icon: 'warning', cls: 'mk-fallback', label: 'fallback', tip: 'the credit fell back to 0 (logged fallback)', flag: 4 },
  { key: 'clipped', icon: 'fold', cls: 'mk-clipped', label: 'clipped', tip: 'c reached the clip at ±1' },
  {
    key: 'cMismatch',
    icon: 'error',
    cls: 'mk-cmis',
    label: 'c ≠ recomputed',
    tip: 'the logged c differs from its recomputation by more than 1e-6',
    flag: 16,
  },
  {
    key: 'aTMismatch',
    icon: 'error',
    cls: 'mk-atmis',
    label: 'A_t ≠ A+βc',
    tip: 'the logged A_t differs from A + beta*c by more than 1e-6',
    flag: 32,
  },
  {
    key: 'executedIsArgmax',
    icon: 'star-full',
    cls: 'mk-argmax',
    label: 'executed = argmax',
    tip: 'the executed candidate has the highest score',
    flag: 2,
  },
  { key: 'masked', icon: 'circle-slash', cls: 'mk-masked', label: 'masked', tip: 'terminal done: no credit on this turn', flag: 8 },
  {
    key: 'repeat',
    icon: 'redo',
    cls: 'mk-repeat',
    label: 'repeat',
    tip: 'a turn of a repeat: the same action three times in a row',
    tag: 'repeat',
  },
  { key: 'cycle', icon: 'sync', cls: 'mk-cycle', label: 'cycle', tip: 'a turn of a cycle: two actions alternating', tag: 'cycle' },
  {
    key: 'collapsed',
    icon: 'merge',
    cls: 'mk-collapsed',
    label: 'collapsed',
    tip: 'all K samples agreed: c is 0 by construction',
    tag: 'collapsed',
  },
];

export const icon = (name: string): HTMLElement => h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });

/** A mark's chip: icon and word (`short`: icon only, the word in the tooltip and for screen readers). */
export function markEl(m: MarkDef, short = false): HTMLElement {
  return h(
    'span',
    { class: `mark ${m.cls}`, title: `${m.label}: ${m.tip}`, 'data-mark': m.key, ...(short ? { role: 'img', 'aria-label': m.label } : {}) },
    icon(m.icon),
    short ? null : m.label,
  );
}

export function marksOf(t: Marked, short = false): HTMLElement[] {
  return MARKS.filter((m) => t[m.key]).map((m) => markEl(m, short));
}

/** An anomaly worth a look (masked is a state, not an anomaly). */
export function isAnomalous(t: Marked): boolean {
  return MARKS.some((m) => m.key !== 'masked' && t[m.key]);
}

/** The marks the table's flag and tag filters ask for: the detail scrolls to the first turn with one. */
export function wantedMarks(flags: number | undefined, tags: readonly TagName[] = []): MarkKey[] {
  return MARKS.filter((m) => (m.flag !== undefined && ((flags ?? 0) & m.flag) !== 0) || (m.tag !== undefined && tags.includes(m.tag))).map(
    (m) => m.key,
  );
}

/** The next turn after `from` with a mark worth a look, wrapping round to the first; undefined when no turn has one. */
export function nextMarked(turns: readonly (Marked & { index: number })[], from: number): number | undefined {
  const marked = turns.filter(isAnomalous).map((t) => t.index);
  return marked.find((i) => i > from) ?? marked[0];
}

export function legend(): HTMLElement {
  return h(
    'div',
    { class: 'legend', id: 'marks-legend', role: 'note', 'aria-label': 'legend of the turn marks' },
    h('span', { class: 'muted' }, 'marks:'),
    ...MARKS.map((m) => markEl(m)),
    h('span', { class: 'mark agrees', title: 'the logged c equals its recomputation' }, icon('check'), 'c agrees'),
  );
}
