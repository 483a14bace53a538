/** The table's columns: what each shows, its header's explanation, the flag icons and their visible legend. */
import type { SortKey } from '../../src/shared/shapes';
import { h } from '../common';
import { formatCount, formatReward, formatSigned } from '../../src/shared/format';
import type { RowView } from '../../src/shared/protocol/trajectories';
import { icon } from './marks';
import { tagButtons } from './tags';

/** A flag of a row: its icon and colour (the turn marks' own), its count when it has one, and what it means. */
interface RowFlag {
  id: string;
  icon: string;
  cls: string;
  /** what the flag says, in full (the tooltip), after its count */
  meaning: string;
  /** the same after a count of 1 */
  one: string;
  /** the same in a few words (the legend) */
  short: string;
  /** how many turns carry it (0: the flag is off); `true` for a flag without a count */
  count: (r: RowView) => number | boolean;
}

const FLAGS: readonly RowFlag[] = [
  {
    id: 'flip',
    icon: 'arrow-swap',
    cls: 'mk-flip',
    meaning: 'turns whose A_t has the other sign than A',
    one: 'turn whose A_t has the other sign than A',
    short: 'sign-flip turns',
    count: (r) => r.signFlips,
  },
  {
    id: 'argmax',
    icon: 'star-full',
    cls: 'mk-argmax',
    meaning: 'turns where the executed candidate has the highest score',
    one: 'turn where the executed candidate has the highest score',
    short: 'turns executed = argmax',
    count: (r) => r.argmaxTurns,
  },
  {
    id: 'fallback',
    icon: 'warning',
    cls: 'mk-fallback',
    meaning: 'turns whose credit fell back to 0',
    one: 'turn whose credit fell back to 0',
    short: 'fallback turns',
    count: (r) => r.fallbackTurns,
  },
  {
    id: 'mismatch',
    icon: 'error',
    cls: 'mk-cmis',
    meaning: 'a logged c or A_t differs from its recomputation',
    one: 'a logged c or A_t differs from its recomputation',
    short: 'c or A_t ≠ recomputed',
    // core's Flag.CMismatch (16) and Flag.ATMismatch (32)
    count: (r) => (r.flags & (16 | 32)) !== 0,
  },
];

function flagCell(r: RowView): HTMLElement {
  const on = FLAGS.flatMap((f) => {
    const n = f.count(r);
    if (n === false || n === 0) return [];
    const words = n === true ? f.meaning : `${n} ${n === 1 ? f.one : f.meaning}`;
    return [
      h(
        'span',
        { class: `rflag ${f.cls}`, role: 'img', title: words, 'aria-label': words, 'data-flag': f.id },
        icon(f.icon),
        n === true ? '' : n,
      ),
    ];
  });
  return h('span', { class: 'flags' }, ...on, ...tagButtons(r.tags, false));
}

export interface Column {
  key: SortKey;
  label: string;
  /** what the column holds, in words (the header's tooltip) */
  tip: string;
  num?: boolean;
  /** stays in view at the table's right edge when the table is narrower than its columns */
  sticky?: boolean;
  cell: (r: RowView) => string | HTMLElement;
}

/** A column's cell classes: figures right-aligned, the flags sticky. */
export const colClass = (c: Pick<Column, 'num' | 'sticky'>): string | undefined =>
  [c.num ? 'num' : '', c.sticky ? 'sticky' : ''].join(' ').trim() || undefined;

export const COLUMNS: readonly Column[] = [
  { key: 'iteration', label: 'iter', tip: 'iteration', num: true, cell: (r) => String(r.iteration) },
  { key: 'group', label: 'group', tip: 'group within the iteration', num: true, cell: (r) => String(r.group) },
  { key: 'rollout', label: 'roll', tip: 'rollout within the group', num: true, cell: (r) => String(r.rollout) },
  {
    key: 'reward',
    label: 'reward',
    tip: 'reward: 1 success, 0 failure, -1 format failure',
    num: true,
    cell: (r) => formatReward(r.reward),
  },
  { key: 'A', label: 'A', tip: 'the trajectory’s advantage A', num: true, cell: (r) => formatSigned(r.A, 3) },
  {
    key: 'labeled',
    label: 'lab',
    tip: '● labeled: its turns have candidate scores and a credit c',
    cell: (r) => (r.labeled ? h('span', { class: 'lab', role: 'img', 'aria-label': 'labeled', title: 'labeled' }, '●') : ''),
  },
  { key: 'turns', label: 'turns', tip: 'number of turns', num: true, cell: (r) => formatCount(r.turns) },
  { key: 'meanC', label: 'mean c', tip: 'mean credit c over the credited turns', num: true, cell: (r) => formatSigned(r.meanC, 3) },
  {
    key: 'flags',
    label: 'flags',
    tip: `flags (n: how many turns): ${FLAGS.map((f) => f.meaning).join('; ')}; then the behaviour tags (a click filters by one)`,
    sticky: true,
    cell: flagCell,
  },
];

/** The key of the table, always visible under the toolbar: each flag icon and the labeled dot, in words. */
export function flagLegend(): HTMLElement {
  return h(
    'div',
    { class: 'legend table-legend', id: 'flags-legend', role: 'note', 'aria-label': 'legend of the table’s flags' },
    h('span', { class: 'muted' }, 'flags:'),
    h('span', { class: 'key' }, h('span', { class: 'lab' }, '●'), ' labeled'),
    ...FLAGS.map((f) =>
      h('span', { class: 'key' }, h('span', { class: `rflag ${f.cls}` }, icon(f.icon), f.id === 'mismatch' ? '' : 'n'), ` ${f.short}`),
    ),
  );
}
