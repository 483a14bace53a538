/**
 * The searched text marked where it is: in the detail's fields (instruction, actions, candidates,
 * task) as `<mark class="hit">` around text nodes the page already made. Log text stays text: the
 * marks only split existing text nodes, never parse markup.
 */
import { matchRanges } from './matchRanges';

/** The detail's fields a text search looks in. */
export const SEARCHED_FIELDS = ['instruction', 'action', 'candidate', 'task'].map((f) => `[data-field="${f}"]`).join(', ');

/** Wraps each place of `needle` in `el`'s text in a mark (a place may span several text nodes); true when there is one. */
export function markMatches(el: Element, needle: string): boolean {
  const nodes: Text[] = [];
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  const starts: number[] = [];
  let text = '';
  for (const n of nodes) {
    starts.push(text.length);
    text += n.data;
  }
  const ranges = matchRanges(text, needle);
  if (ranges.length === 0) return false;
  // from the last node and the last range back, so that the offsets of what is left stay right
  for (let k = nodes.length - 1; k >= 0; k--) {
    const node = nodes[k]!;
    const s = starts[k]!;
    for (let j = ranges.length - 1; j >= 0; j--) {
      const [a, b] = ranges[j]!;
      const lo = Math.max(a, s) - s;
      const hi = Math.min(b, s + node.data.length) - s;
      if (lo >= hi) continue;
      const mid = node.splitText(lo);
      mid.splitText(hi - lo);
      const mark = el.ownerDocument.createElement('mark');
      mark.className = 'hit';
      mid.replaceWith(mark);
      mark.append(mid);
    }
  }
  return true;
}
