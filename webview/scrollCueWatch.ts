/** The scroll cue kept in step with a box (browser only: the words are scrollCue.ts's). */
import { cueText, hiddenSides } from './scrollCue';

/**
 * Keeps `cue`'s text (and the box's data-hidden) in step with `box`'s sideways scroll and size;
 * the update it returns is for a box whose content changes while its size does not. The first
 * update comes from the resize observer's first report, after the frame's layout and before its
 * paint: reading the sizes now would lay out a page still being built, at once and again later.
 */
export function watchScrollCue(box: HTMLElement, cue: HTMLElement): () => void {
  const update = (): void => {
    const s = hiddenSides(box.scrollWidth, box.clientWidth, box.scrollLeft);
    cue.textContent = cueText(s);
    cue.hidden = cue.textContent === '';
    box.dataset['hidden'] = `${s.left ? 'left' : ''}${s.right ? 'right' : ''}`;
  };
  cue.hidden = cue.textContent === '';
  box.addEventListener('scroll', update, { passive: true });
  new ResizeObserver(update).observe(box);
  return update;
}
