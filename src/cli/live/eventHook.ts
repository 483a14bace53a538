/**
 * `--on-event CMD`: CMD split into words (quotes group words; nothing is expanded, no shell),
 * run once per event with the event's JSON on its standard input and nothing of the log in its
 * arguments. Its own output goes to stderr, so that stdout stays the watch's events.
 */
import { spawn } from 'node:child_process';
import parseArgsStringToArgv from 'string-argv';
import { UsageError } from '../args';
import type { LiveEvent } from '../../core/live/liveEvent';

/** The words of `cmd`, or a usage error when there are none. */
export function commandWords(cmd: string): string[] {
  const words = parseArgsStringToArgv(cmd);
  if (words.length === 0 || words[0] === '') throw new UsageError('--on-event needs a command');
  return words;
}

/** Runs the command for one event; resolves with its exit code, or rejects when it cannot be started. */
export function runHook(words: readonly string[], e: LiveEvent): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(words[0]!, words.slice(1), { shell: false, stdio: ['pipe', 2, 2] });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    // a command that does not read its input must not stop the watch
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify(e) + '\n');
  });
}
