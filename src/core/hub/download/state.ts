/**
 * Where a download keeps its own state. The destination holds only the launcher's layout
 * once a download is verified; while one runs, `.rlrb-download/` in it holds the lock and
 * the partials (there, so that a verified partial is renamed into place atomically on the
 * same file system). The manifest (which ranges of each partial are written, which files
 * were verified) lives in a state folder: the extension's global storage, the CLI's
 * `$XDG_STATE_HOME/rlrb` (else `~/.local/state/rlrb`), one subfolder per destination.
 * Without a state folder the manifest stays with the partials and goes with them.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { STATE_DIR } from './types';

/** The CLI's state folder: `$XDG_STATE_HOME/rlrb`, else `<home>/.local/state/rlrb`. */
export function defaultStateRoot(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env['XDG_STATE_HOME'];
  return xdg && xdg.startsWith('/') ? join(xdg, 'rlrb') : join(home, '.local', 'state', 'rlrb');
}

/** The folder a destination's manifest lives in. */
export function manifestFolder(dest: string, stateRoot: string | undefined): string {
  const abs = resolve(dest);
  if (stateRoot === undefined) return join(abs, STATE_DIR);
  return join(resolve(stateRoot), 'downloads', createHash('sha256').update(abs).digest('hex').slice(0, 24));
}
