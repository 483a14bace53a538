/**
 * Runs `fn` once, after the next frame has been painted: what a page shows first is on the
 * screen before the rest is built. When the page is hidden frames wait, so it runs soon anyway.
 */
export function afterPaint(fn: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 200);
}
