/** Log text as DOM text: bidi controls become visible `<U+202E>` tokens (src/shared/visibleText), never markup. */
import { h } from '../common';
import { visibleParts } from '../../src/shared/visibleText';
import { wrapPieces } from '../../src/shared/format';

/** The nodes of one log string: text nodes, and a styled token for each bidi control. */
export function logNodes(s: string): Node[] {
  return visibleParts(s).map((p) => (p.control ? bidiToken(p.text) : document.createTextNode(p.text)));
}

const bidiToken = (text: string): HTMLElement =>
  h('span', { class: 'bidi', title: 'a bidi control character in the log, shown by its code point' }, text);

type Attrs = Record<string, string | number | undefined>;

/** An element holding `s` as `nodes` makes it (or `empty`, in the muted style, when the log has none). */
function textEl<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs,
  s: string | null,
  empty: string,
  nodes: (s: string) => Node[],
): HTMLElementTagNameMap[K] {
  const el = h(tag, attrs);
  el.append(...(s === null ? [h('span', { class: 'muted' }, empty)] : nodes(s)));
  return el;
}

/** An element holding one log string (or `empty`, in the muted style, when the log has none). */
export function logEl<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs,
  s: string | null,
  empty: string,
): HTMLElementTagNameMap[K] {
  return textEl(tag, attrs, s, empty, logNodes);
}

/** One piece of code-like text: the token unbreakable, its trailing spaces free to hang at a line end, then a break opportunity. */
function pieceNodes(piece: string): Node[] {
  const body = piece.replace(/\s+$/, '');
  const out: Node[] = [];
  if (body) out.push(h('span', { class: 'tok' }, body));
  if (body.length < piece.length) out.push(document.createTextNode(piece.slice(body.length)));
  out.push(h('wbr', {}));
  return out;
}

/** The nodes of a code-like string: its pieces between break opportunities, and a token for each bidi control. */
function codeNodes(s: string): Node[] {
  return visibleParts(s).flatMap((p) => (p.control ? [bidiToken(p.text)] : wrapPieces(p.text).flatMap(pieceNodes)));
}

/**
 * A code-like log string (an action, a candidate) as DOM text that wraps only at word
 * boundaries (spaces, commas, brackets, `=`: src/shared/format's wrapPieces), never inside a
 * token; a token too long for its column scrolls. Bidi controls are made visible as in logNodes.
 */
export function codeEl<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs,
  s: string | null,
  empty: string,
): HTMLElementTagNameMap[K] {
  return textEl(tag, attrs, s, empty, codeNodes);
}
