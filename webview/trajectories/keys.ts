/** The browser's keys that belong to the workbench (contributes.keybindings), not to the page. */

/** What the page reads of a key press (a KeyboardEvent's fields). */
export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/** What the page reads of the element a key press went to. */
export interface KeyTarget {
  tagName?: string;
  isContentEditable?: boolean;
}

/** Where a key edits or opens a control (text, a list's popup): its own default is the user's. */
const CONTROLS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/**
 * Whether the page must not do its own default for this key press: Alt+↑ / Alt+↓, the workbench's
 * previous / next trajectory (done by the host, which selects and scrolls to the row). Chromium's
 * default for them is PageUp / PageDown in the focused scroller (on macOS, and for a key that is not
 * a system key, as a test driver sends it): that page-long scroll lands after the host's selection
 * and carries the table away from the highlighted row. In a form control the key keeps its default.
 */
export function isWorkbenchScrollKey(e: KeyPress, target: KeyTarget | null): boolean {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return false;
  if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return false;
  return !(target?.isContentEditable === true || CONTROLS.has(target?.tagName?.toUpperCase() ?? ''));
}
