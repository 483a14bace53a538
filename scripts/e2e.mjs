// The end-to-end suite: packages the VSIX, then runs test/e2e in a real VS Code
// (code-server) driven by Debian's Chromium. Fails, never skips, when either is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { codeServerBin } from './codeServer.mjs';

if (!existsSync('/usr/bin/chromium')) {
  console.error(
    "e2e: Chromium is missing. Run `npm run setup` (it installs Debian's chromium), " +
      'or run only the unit and integration tests with `npm run test:unit`.',
  );
  process.exit(1);
}
if (!existsSync(codeServerBin)) {
  console.error(
    'e2e: code-server is missing. Run `npm run setup` (it installs code-server once per machine into ~/.cache/rl-run-browser/), ' +
      'or run only the unit and integration tests with `npm run test:unit`.',
  );
  process.exit(1);
}
const pack = spawnSync('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (pack.status !== 0) process.exit(pack.status ?? 1);
const VSIX = 'dist/rl-run-browser.vsix';
const maps = zipEntries(VSIX).filter((n) => n.endsWith('.map'));
if (maps.length > 0) {
  console.error(`e2e: ${VSIX} holds source maps (.vscodeignore must exclude them): ${maps.join(', ')}`);
  process.exit(1);
}
const build = spawnSync('node', ['esbuild.mjs', '--only=tests,cli,emulator'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
/** The e2e files, in the order they run; `node scripts/e2e.mjs <file>...` runs only those (e.g. build/test/e2e/browser.test.js). */
const SUITE = [
  'build/test/e2e/journeys.test.js',
  'build/test/e2e/browser.test.js',
  'build/test/e2e/dashboard.test.js',
  'build/test/e2e/share.test.js',
  'build/test/e2e/inPlace.test.js',
  'build/test/e2e/browse.test.js',
  'build/test/e2e/overlay.test.js',
  'build/test/e2e/task.test.js',
  'build/test/e2e/compare.test.js',
  'build/test/e2e/problems.test.js',
  'build/test/e2e/verdict.test.js',
  'build/test/e2e/evalCharts.test.js',
  'build/test/e2e/behaviour.test.js',
  'build/test/e2e/credit.test.js',
  'build/test/e2e/behaviourViews.test.js',
  'build/test/e2e/evalBrowser.test.js',
  'build/test/e2e/a11y.test.js',
  'build/test/e2e/welcome.test.js',
];
const FILES = process.argv.slice(2);
// this run's screenshots only (each file writes its own, under its own prefix)
rmSync('test-results/e2e', { recursive: true, force: true });
const files = FILES.length > 0 ? FILES : SUITE;
const failed = files.filter((f) => runFile(f) !== 0);
// A real VS Code on a loaded two-core machine can miss a wait it makes in time alone. A file that fails
// runs once more, after the others, and is named either way: a failure twice fails the suite, a pass
// on the second run is reported as flaky (never silently).
const flaky = [];
const broken = [];
for (const f of failed) {
  console.error(`e2e: ${f} FAILED; running it once more to tell a flake from a failure`);
  (runFile(f) === 0 ? flaky : broken).push(f);
}
console.log(`e2e: ${files.length - failed.length} of ${files.length} files passed on the first run`);
if (flaky.length > 0) console.log(`e2e: FLAKY (failed, then passed on the second run): ${flaky.join(', ')}`);
if (broken.length > 0) console.log(`e2e: FAILED twice: ${broken.join(', ')}`);
process.exit(broken.length > 0 ? 1 : 0);

/** One e2e file in its own test run; its exit status. */
function runFile(file) {
  const r = spawnSync('node', ['--test', '--test-timeout=900000', '--enable-source-maps', file], {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  return r.status ?? 1;
}

/** The file names in a zip's central directory (a VSIX is a zip; no zip64, which a VSIX never needs). */
function zipEntries(path) {
  const b = readFileSync(path);
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${path}: not a zip (no end of central directory)`);
  const count = b.readUInt16LE(eocd + 10);
  const names = [];
  for (let i = 0, at = b.readUInt32LE(eocd + 16); i < count; i++) {
    if (b.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: broken central directory at byte ${at}`);
    const nameLen = b.readUInt16LE(at + 28);
    names.push(b.toString('utf8', at + 46, at + 46 + nameLen));
    at += 46 + nameLen + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
  }
  return names;
}
