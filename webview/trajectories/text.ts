/** Log text as DOM text: bidi controls become visible `<U+202E>` tokens (src/shared/visibleText), never markup. */
import { h } from '../common';
import { visibleParts } from '../../src/shared/visibleText';

/** The nodes of one log string: text nodes, and a styled token for each bidi control. */
export function logNodes(s: string): Node[] {
  return visibleParts(s).map((p) =>
    p.control
      ? h('span', { class: 'bidi', title: 'a bidi control character in the log, shown by its code point' }, p.text)
      : document.createTextNode(p.text),
  );
}

/** An element holding one log string (or `empty`, in the muted style, when the log has none). */
export function logEl<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | undefined>,
  s: string | null,
  empty: string,
): HTMLElementTagNameMap[K] {
  const el = h(tag, attrs);
  if (s === null) el.append(h('span', { class: 'muted' }, empty));
  else el.append(...logNodes(s));
  return el;
}
