/**
 * Follows growing log files: a change (fs.watch, with polling as the fallback that
 * works on every file system) triggers an incremental update, debounced.
 */
import { watch, watchFile, unwatchFile } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import type { Disposable } from './events';

export function followFile(path: string, onChange: () => void, opts: { debounceMs?: number; pollMs?: number } = {}): Disposable {
  let timer: NodeJS.Timeout | undefined;
  const fire = (): void => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, opts.debounceMs ?? 100);
  };
  let w: FSWatcher | undefined;
  try {
    w = watch(path, { persistent: false }, fire);
    w.on('error', () => {
      w?.close();
      w = undefined;
    });
  } catch {
    w = undefined;
  }
  const poll = (): void => fire();
  watchFile(path, { interval: opts.pollMs ?? 500, persistent: false }, poll);
  return {
    dispose: () => {
      w?.close();
      unwatchFile(path, poll);
      if (timer) clearTimeout(timer);
    },
  };
}
