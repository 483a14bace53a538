/** Work the extension starts without waiting for it: a failure is one line in the output channel, never lost. */
import { errorMessage } from '../core/errorMessage';

/** A line for the RL Runs output channel. */
export type FailureLog = (line: string) => void;

/** Lets `work` go on alone; if it fails, `log` gets `what: the error` (one line). */
export function background(work: PromiseLike<unknown>, log: FailureLog, what: string): void {
  work.then(undefined, (e: unknown) => log(`${what}: ${errorMessage(e)}`));
}
