/**
 * The browser's keys: arrows, Page Up/Down and Enter in the table, arrows and n in the detail,
 * g anywhere; and the workbench's shortcuts (contributes.keybindings) that the host passes on.
 */
import type { BrowserAction, ShareAction } from '../../../src/shared/protocol/trajectories';
import { isWorkbenchScrollKey } from '../keys';
import { scrollWithin } from '../../scroll';
import { ROW_H } from './list';
import type { DetailPane } from './detailPane';
import type { BrowserModel } from './store';

/** What the keys act on. */
export interface KeyTargets {
  viewport: HTMLElement;
  detail: DetailPane;
  select: (i: number, open: boolean) => void;
  share: (action: ShareAction, turn: number | null) => void;
}

const modified = (e: KeyboardEvent): boolean => e.altKey || e.ctrlKey || e.metaKey;

/** Listens for the page's own keys; returns what a workbench shortcut does. */
export function bindKeys(m: BrowserModel, t: KeyTargets): (a: BrowserAction) => void {
  const { viewport, detail, select } = t;
  const pageRows = (): number => Math.floor(viewport.clientHeight / ROW_H);
  viewport.addEventListener('keydown', (e) => {
    // with a modifier it is a workbench shortcut (contributes.keybindings), done through the host
    if (modified(e)) return;
    const moves: Record<string, () => void> = {
      ArrowDown: () => select(m.selIndex + 1, false),
      ArrowUp: () => select(Math.max(0, m.selIndex - 1), false),
      PageDown: () => select(Math.min(m.total - 1, m.selIndex + pageRows()), false),
      PageUp: () => select(Math.max(0, m.selIndex - pageRows()), false),
      Enter: () => select(m.selIndex < 0 ? 0 : m.selIndex, true),
    };
    const move = moves[e.key];
    if (move) {
      move();
      e.preventDefault();
    } else if (e.key === 'g') detail.toggleGroup();
  });
  detail.el.addEventListener('keydown', (e) => {
    const n = detail.shownTurns();
    if (n === 0 || modified(e)) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      m.focusTurn = Math.max(0, Math.min(n - 1, m.focusTurn + (e.key === 'ArrowDown' ? 1 : -1)));
      const el = detail.el.querySelector(`[data-turn="${m.focusTurn}"]`);
      detail.el.querySelectorAll('.turn.focus').forEach((x) => x.classList.remove('focus'));
      el?.classList.add('focus');
      if (el) scrollWithin(el, 'nearest', detail.el);
      e.preventDefault();
    } else if (e.key === 'g') detail.toggleGroup();
    else if (e.key === 'n') {
      detail.nextMark();
      e.preventDefault();
    }
  });
  document.addEventListener('keydown', (e) => {
    // the workbench's previous/next trajectory: the host selects and scrolls, the page must not scroll a page too
    if (isWorkbenchScrollKey(e, e.target instanceof HTMLElement ? e.target : null)) e.preventDefault();
    if (e.key === 'g' && !modified(e) && e.target === document.body) detail.toggleGroup();
  });

  /** A host shortcut (contributes.keybindings): move through the table or the turns, or share. */
  return (a: BrowserAction): void => {
    const focused = detail.focused();
    switch (a) {
      case 'nextTrajectory':
        select(m.selIndex < 0 ? 0 : Math.min(m.total - 1, m.selIndex + 1), true);
        break;
      case 'previousTrajectory':
        select(Math.max(0, m.selIndex - 1), true);
        break;
      case 'nextTurn':
      case 'previousTurn': {
        const turns = m.detail?.turns.length ?? 0;
        if (turns > 0) detail.focusOn(Math.max(0, Math.min(turns - 1, (focused ?? -1) + (a === 'nextTurn' ? 1 : -1))), 'start');
        break;
      }
      case 'toggleGroup':
        detail.toggleGroup();
        break;
      case 'copyLink':
      case 'openRaw':
        t.share(a, focused);
        break;
      default:
        t.share(a, null);
    }
  };
}
