/** The resizable split between table and detail: pointer drag and arrow keys, the width a percentage kept in state. */
import { h } from '../common';

export function splitter(container: HTMLElement, initial: number, onChange: (pct: number) => void): HTMLElement {
  let pct = initial;
  const el = h('div', {
    class: 'splitter',
    id: 'splitter',
    role: 'separator',
    tabindex: 0,
    'aria-orientation': 'vertical',
    'aria-label': 'Resize the table and the detail (arrow keys)',
    'aria-valuemin': 20,
    'aria-valuemax': 80,
  });
  const apply = (v: number): void => {
    pct = Math.max(20, Math.min(80, Math.round(v)));
    container.style.setProperty('--split', `${pct}%`);
    el.setAttribute('aria-valuenow', String(pct));
  };
  apply(pct);
  el.addEventListener('pointerdown', (e) => {
    el.setPointerCapture(e.pointerId);
    el.classList.add('dragging');
  });
  el.addEventListener('pointermove', (e) => {
    if (!el.hasPointerCapture(e.pointerId)) return;
    const r = container.getBoundingClientRect();
    apply(((e.clientX - r.left) / r.width) * 100);
  });
  const end = (e: PointerEvent): void => {
    if (!el.hasPointerCapture(e.pointerId)) return;
    el.releasePointerCapture(e.pointerId);
    el.classList.remove('dragging');
    onChange(pct);
  };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', end);
  el.addEventListener('keydown', (e) => {
    const step = e.key === 'ArrowLeft' ? -2 : e.key === 'ArrowRight' ? 2 : e.key === 'Home' ? -100 : e.key === 'End' ? 100 : 0;
    if (!step) return;
    apply(pct + step);
    onChange(pct);
    e.preventDefault();
  });
  return el;
}
