// Runs every test: the typecheck and the linter on one program (scripts/check.mjs) beside the
// format check, then the build, the unit and integration tests with node's test runner, then
// the end-to-end suite in a real VS Code. Each step prints its time. `--unit` stops after the
// unit and integration tests. The checks keep their caches in .cache/ (gitignored).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const unitOnly = process.argv.includes('--unit');
const seconds = (t0) => ((Date.now() - t0) / 1000).toFixed(1);
const report = (name, status, t0) => console.log(`test: ${name} ${status === 0 ? 'passed' : 'FAILED'} (${seconds(t0)} s)`);

/** A step whose output goes straight through; its exit status. */
function step(name, cmd, args, env = {}) {
  const t0 = Date.now();
  const status = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
  report(name, status, t0);
  return status;
}

/** A step run beside others: its output held until it ends, then printed whole (never interleaved); its exit status. */
function beside(name, cmd, args) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(out));
      report(name, code ?? 1, t0);
      resolve(code ?? 1);
    });
  });
}

const tAll = Date.now();
// two cores: the compiler and the linter on one, prettier on the other
const checks = await Promise.all([
  beside('typecheck and lint', 'node', ['scripts/check.mjs']),
  beside('format check', 'npx', [
    'prettier',
    '--check',
    '--log-level=warn',
    '--cache',
    '--cache-location',
    '.cache/prettier/cache.json',
    '.',
  ]),
]);
if (checks.some((s) => s !== 0)) process.exit(1);
if (step('build', 'node', ['esbuild.mjs']) !== 0) process.exit(1);
const files = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.test.js'))
        .map((f) => join(dir, f))
    : [];
const suites = [...files('build/test/unit'), ...files('build/test/integration')];
let status = step('unit and integration tests', 'node', ['--test', '--test-concurrency=2', '--enable-source-maps', ...suites]);
if (!unitOnly && existsSync('scripts/e2e.mjs')) {
  // the tests, the CLI and the emulator are built already
  const e2e = step('end-to-end tests', 'node', ['scripts/e2e.mjs'], { RLRB_E2E_BUILT: '1' });
  status = status || e2e;
}
console.log(`test: ${status === 0 ? 'all passed' : 'FAILED'} (${seconds(tAll)} s)`);
process.exit(status);
