// Runs every test: the typecheck and the linter on one program (scripts/check.mjs) and the
// format check, beside them the build and then the unit and integration tests with node's test
// runner (the checks use one core of two: the tests take the other), then, when all of these
// passed, the end-to-end suite in a real VS Code. Each step prints its time. `--unit` stops
// after the unit and integration tests. The checks keep their caches in .cache/ (gitignored).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const unitOnly = process.argv.includes('--unit');
const seconds = (t0) => ((Date.now() - t0) / 1000).toFixed(1);
const report = (name, status, t0) => console.log(`test: ${name} ${status === 0 ? 'passed' : 'FAILED'} (${seconds(t0)} s)`);

/** A step whose output goes straight through; its exit status (the event loop runs meanwhile: the checks' output is read). */
function step(name, cmd, args, env = {}) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('close', (code) => {
      report(name, code ?? 1, t0);
      resolve(code ?? 1);
    });
  });
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
// two cores: the compiler and the linter on one, prettier and then the tests on the other
const checks = Promise.all([
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
]).then((all) => all.find((s) => s !== 0) ?? 0);
const files = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.test.js'))
        .map((f) => join(dir, f))
    : [];
const tests = step('build', 'node', ['esbuild.mjs']).then((built) => {
  if (built !== 0) return built;
  const suites = [...files('build/test/unit'), ...files('build/test/integration')];
  return step('unit and integration tests', 'node', ['--test', '--test-concurrency=2', '--enable-source-maps', ...suites]);
});
const [checked, tested] = await Promise.all([checks, tests]);
let status = checked || tested;
if (!unitOnly && status === 0 && existsSync('scripts/e2e.mjs')) {
  // the tests, the CLI and the emulator are built already
  status = await step('end-to-end tests', 'node', ['scripts/e2e.mjs'], { RLRB_E2E_BUILT: '1' });
}
console.log(`test: ${status === 0 ? 'all passed' : 'FAILED'} (${seconds(tAll)} s)`);
process.exit(status);
