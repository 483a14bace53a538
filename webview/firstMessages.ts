/**
 * The host's first messages, embedded in the page's html (src/extension/panels/html.ts):
 * handled as if they had come, before the page's first frame, so that its first paint
 * needs no message round trip. The host still answers `ready`; an answer equal to an
 * embedded message is then dropped (`repeated`) instead of drawn a second time.
 */
const embedded = new Map<string, string>();

/** Hands each embedded message to `fn`, in order. */
function firstMessages<In extends { type: string }>(fn: (m: In) => void): void {
  let ms: unknown;
  try {
    ms = JSON.parse(document.getElementById('first-messages')?.textContent ?? '[]');
  } catch {
    return;
  }
  if (!Array.isArray(ms)) return;
  for (const m of ms as In[]) {
    if (!m || typeof m.type !== 'string') continue;
    embedded.set(m.type, JSON.stringify(m));
    fn(m);
  }
}

/** Whether `m` is the host's answer to `ready` repeating the embedded message of its type (checked once per type). */
function repeated(m: { type: string }): boolean {
  const e = embedded.get(m.type);
  if (e === undefined) return false;
  embedded.delete(m.type);
  return JSON.stringify(m) === e;
}

/**
 * Hands `handle` the embedded messages now, then each message from the host except one
 * that repeats an embedded message (that one goes to `onRepeat`, when given).
 */
export function listen<In extends { type: string }>(
  onMessage: (fn: (m: In) => void) => void,
  handle: (m: In) => void,
  onRepeat?: (m: In) => void,
): void {
  onMessage((m) => {
    if (!repeated(m)) handle(m);
    else onRepeat?.(m);
  });
  firstMessages(handle);
}
