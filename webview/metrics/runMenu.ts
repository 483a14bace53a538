/** The small menu a chart click opens when several runs have a point there: which run's trajectories to open. */
import { h } from '../common';
import { swatch } from './palette';

export interface MenuItem {
  label: string;
  color: string;
  pick: () => void;
}

let open: HTMLElement | undefined;

export function closeRunMenu(): void {
  open?.remove();
  open = undefined;
}

/** Shows the menu at (x, y) in the page; a pick, Escape or a click elsewhere closes it. */
export function showRunMenu(x: number, y: number, title: string, items: readonly MenuItem[]): void {
  closeRunMenu();
  const buttons = items.map((it) => {
    const b = h('button', { class: 'run-menu-item', role: 'menuitem' }, swatch(it.color), h('span', { text: it.label }));
    b.addEventListener('click', () => {
      closeRunMenu();
      it.pick();
    });
    return b;
  });
  const menu = h(
    'div',
    { class: 'run-menu', id: 'run-menu', role: 'menu', 'aria-label': title },
    h('div', { class: 'muted' }, title),
    ...buttons,
  );
  menu.style.left = `${Math.max(0, Math.min(x, window.innerWidth - 280))}px`;
  menu.style.top = `${Math.max(0, Math.min(y, window.innerHeight - 40 - 28 * items.length))}px`;
  menu.addEventListener('keydown', (e) => {
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') closeRunMenu();
    else if (e.key === 'ArrowDown') buttons[(i + 1) % buttons.length]?.focus();
    else if (e.key === 'ArrowUp') buttons[(i - 1 + buttons.length) % buttons.length]?.focus();
    else return;
    e.preventDefault();
  });
  document.body.append(menu);
  open = menu;
  buttons[0]?.focus();
}

// a click outside the menu closes it (the click that opens one is on a canvas, handled first)
document.addEventListener(
  'pointerdown',
  (e) => {
    if (open && !open.contains(e.target as Node)) closeRunMenu();
  },
  true,
);
