// The end-to-end suite: packages the VSIX, then runs test/e2e in a real VS Code
// (code-server) driven by Debian's Chromium. Fails, never skips, when either is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { codeServerBin } from './codeServer.mjs';

if (!existsSync('/usr/bin/chromium')) {
  console.error(
    "e2e: Chromium is missing. Run `npm run setup` (it installs Debian's chromium), or run only the unit and integration tests with `npm run test:unit`.",
  );
  process.exit(1);
}
if (!existsSync(codeServerBin)) {
  console.error(
    'e2e: code-server is missing. Run `npm run setup` (it installs code-server into .cache/), or run only the unit and integration tests with `npm run test:unit`.',
  );
  process.exit(1);
}
const pack = spawnSync('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (pack.status !== 0) process.exit(pack.status ?? 1);
const build = spawnSync('node', ['esbuild.mjs', '--only=tests,cli,emulator'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
const r = spawnSync(
  'node',
  [
    '--test',
    '--test-concurrency=1',
    '--test-timeout=900000',
    '--enable-source-maps',
    'build/test/e2e/journeys.test.js',
    'build/test/e2e/browser.test.js',
  ],
  { stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } },
);
process.exit(r.status ?? 1);
