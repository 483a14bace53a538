/** The entry point of `dist/cli.js`: runs `main` on the process's arguments (main.ts itself has no side effect, so tests can import it). */
// first: it notes the machine's CPU at the process's start, to tell a busy core when the threads are chosen
import '../core/log/threads/busyCores';
import { main } from './main';
import { safeLine, writeErr } from './output/safeText';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    writeErr(`rlrb: ${safeLine(String(e))}\n`);
    process.exitCode = 1;
  },
);
