/**
 * Whether to open the walkthrough now: on the first activation only (a flag in the global
 * state, set before it opens, so a second window or a crash never opens it again), and not
 * when the user turned off walkthroughs on install (`workbench.welcomePage.walkthroughs.openOnInstall`).
 */
export const WALKTHROUGH_SHOWN = 'rlRunBrowser.walkthroughShown';

/** The part of a VS Code Memento the flag uses. */
export interface FlagStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

/** True (and the flag set) when this activation should open the walkthrough. */
export async function firstRun(store: FlagStore, openOnInstall: boolean): Promise<boolean> {
  if (store.get<boolean>(WALKTHROUGH_SHOWN, false)) return false;
  await store.update(WALKTHROUGH_SHOWN, true);
  return openOnInstall;
}
