/**
 * Whether to open the walkthrough now: on the first activation only (a flag in the global
 * state, set before it opens, so a second window or a crash never opens it again), when the
 * extension's own setting `rlRunBrowser.walkthrough.openOnFirstRun` is on, and not when the user
 * turned off walkthroughs on install (`workbench.welcomePage.walkthroughs.openOnInstall`). That
 * workbench setting is machine-scoped: a remote window (code-server, SSH) reads it from the remote
 * machine's settings only, never from the user's, which is why the extension has a setting of its own.
 */
export const WALKTHROUGH_SHOWN = 'rlRunBrowser.walkthroughShown';

/** The part of a VS Code Memento the flag uses. */
export interface FlagStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

/** The two settings that may keep the walkthrough closed. */
export interface FirstRunSettings {
  /** rlRunBrowser.walkthrough.openOnFirstRun: off, nothing opens and the first run is not used up */
  openOnFirstRun: boolean;
  /** workbench.welcomePage.walkthroughs.openOnInstall: off, the first run passes without opening it */
  openOnInstall: boolean;
}

/** True (and the flag set) when this activation should open the walkthrough. */
export async function firstRun(store: FlagStore, settings: FirstRunSettings): Promise<boolean> {
  if (!settings.openOnFirstRun || store.get<boolean>(WALKTHROUGH_SHOWN, false)) return false;
  await store.update(WALKTHROUGH_SHOWN, true);
  return settings.openOnInstall;
}
