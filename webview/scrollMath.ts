/**
 * Scrolling one scroller to an item, and nothing around it. `Element.scrollIntoView` scrolls every
 * scrollable ancestor, the workbench's own around the webview's frame too (the webview moved up
 * under the tabs, its banner cut off): each page scrolls its own scroller instead
 * (no DOM here: webview/scroll.ts measures).
 */

/** Where an item lies in its scroller's content (px from the content's top). */
export interface Span {
  top: number;
  height: number;
}

/** The scroller: how far it is scrolled and how tall its window is. */
export interface ScrollWindow {
  scrollTop: number;
  height: number;
}

export type Block = 'start' | 'center' | 'nearest';

/**
 * The scrollTop that shows `item` in `view`: at its top (`start`), in its middle (`center`), or
 * moved the least distance that shows it (`nearest`: unmoved when it shows or fills the window).
 */
export function scrollTopFor(item: Span, view: ScrollWindow, block: Block): number {
  const bottom = item.top + item.height;
  const viewBottom = view.scrollTop + view.height;
  let top: number;
  if (block === 'start') top = item.top;
  else if (block === 'center') top = item.top + item.height / 2 - view.height / 2;
  else if (item.top >= view.scrollTop && bottom <= viewBottom) top = view.scrollTop;
  else if (item.top <= view.scrollTop && bottom >= viewBottom) top = view.scrollTop;
  else if (item.top < view.scrollTop || item.height > view.height) top = item.top;
  else top = bottom - view.height;
  return Math.max(0, top);
}
