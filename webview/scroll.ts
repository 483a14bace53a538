/** Scrolling an element into view within its own scroller only (never the workbench around the webview). */
import { scrollTopFor } from './scrollMath';
import type { Block } from './scrollMath';

/** The nearest ancestor of `el` that scrolls vertically, else the document's scroller. */
export function scrollerOf(el: Element): HTMLElement {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const y = getComputedStyle(p).overflowY;
    if ((y === 'auto' || y === 'scroll') && p.scrollHeight > p.clientHeight) return p;
  }
  return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
}

/** Scrolls `scroller` (by default the nearest one) so that `el` shows as `block` says. */
export function scrollWithin(el: Element, block: Block, scroller: HTMLElement = scrollerOf(el)): void {
  const box = el.getBoundingClientRect();
  const page = scroller === document.scrollingElement;
  const base = page ? 0 : scroller.getBoundingClientRect().top + scroller.clientTop;
  const height = page ? window.innerHeight : scroller.clientHeight;
  const top = box.top - base + scroller.scrollTop;
  const to = scrollTopFor({ top, height: box.height }, { scrollTop: scroller.scrollTop, height }, block);
  if (to !== scroller.scrollTop) scroller.scrollTop = to;
}
