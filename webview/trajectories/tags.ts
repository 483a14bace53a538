/** The behaviour tags in the browser: an icon each, a button that filters the table by the tag, and their legend line. */
import { h } from '../common';
import { TAG_NAMES } from '../../src/shared/shapes';
import type { TagName } from '../../src/shared/shapes';
import { TAG_WORDS } from '../../src/shared/tagWords';
import { icon } from './marks';

/** The codicon of each tag (the table's flag, the detail header, the legend). */
export const TAG_ICONS: Readonly<Record<TagName, string>> = {
  repeat: 'redo',
  cycle: 'sync',
  truncated: 'ellipsis',
  noDone: 'debug-stop',
  earlyDone: 'debug-step-out',
  falseDone: 'pass-filled',
  formatFailure: 'symbol-string',
  collapsed: 'merge',
  creditDisagrees: 'diff',
  empty: 'dash',
};

/**
 * A tag as a button: a click adds its `tag:` filter (the page listens for `data-tag-filter`
 * clicks anywhere). `label`: icon and words; otherwise the icon alone, the words in its tooltip.
 */
export function tagButton(t: TagName, label: boolean): HTMLElement {
  const w = TAG_WORDS[t];
  const tip = `${w.label}: ${w.meaning} — click to show only trajectories with this tag`;
  return h(
    'button',
    {
      class: `tagflag mk-tag${label ? ' labelled' : ''}`,
      'data-tag-filter': t,
      title: tip,
      'aria-label': `tag ${w.label}: filter by it`,
    },
    icon(TAG_ICONS[t]),
    label ? w.label : null,
  );
}

/** The tags of a row or a trajectory, each a filter button. */
export function tagButtons(tags: readonly TagName[], label: boolean): HTMLElement[] {
  return tags.map((t) => tagButton(t, label));
}

/** The legend line of the tags, always visible under the flags' legend: every tag's icon and words, each a filter. */
export function tagLegend(): HTMLElement {
  return h(
    'div',
    { class: 'legend table-legend', id: 'tags-legend', role: 'note', 'aria-label': 'legend of the behaviour tags' },
    h('span', { class: 'muted' }, 'tags (click to filter):'),
    ...TAG_NAMES.map((t) => tagButton(t, true)),
  );
}
