// Runs every test: the typecheck and the linter on one program (scripts/check.mjs) and the
// format check, beside them the build and then the unit and integration tests with node's test
// runner (the checks use one core of two: the tests take the other), the test files cut into a
// few lanes, each lane one process that loads its files in turn, then, when all of these
// passed, the end-to-end suite in a real VS Code. Each step prints its time. `--unit` stops
// after the unit and integration tests. The checks keep their caches in .cache/ (gitignored).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeServerBin } from './codeServer.mjs';

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

/**
 * Seconds a test file takes alone (two files at once on a quiet two-core machine), for the files
 * of more than 2 s; any other counts as 1 s. Only the lanes' balance depends on them.
 */
const WEIGHT = {
  'integration/inPlace': 29,
  'integration/live': 23,
  'integration/keptFigures': 23,
  'integration/mcpConformance': 12,
  'integration/cliOneParser': 12,
  'integration/export': 12,
  'integration/downloadBlame': 12,
  'integration/cliTrust': 12,
  'unit/demo': 12,
  'integration/hub': 12,
  'integration/hubTrust': 11,
  'integration/cli': 10,
  'integration/cliThreads': 9,
  'unit/threadedIndex': 8,
  'integration/downloadRanges': 8,
  'integration/mcp': 6,
  'integration/liveReference': 6,
  'integration/downloadKill': 6,
  'unit/panels': 6,
  'integration/inPlaceExport': 5,
  'integration/verdictReference': 5,
  'integration/datasetDuckdb': 5,
  'integration/runsTable': 5,
  'integration/downloadFlags': 5,
  'integration/checkpointHeldout': 5,
  'integration/compareCli': 4,
  'unit/indexStore': 4,
  'unit/compareViews': 4,
  'integration/downloadProxy': 4,
  'integration/checkpointIntegrity': 4,
  'unit/reportViews': 4,
};
const LANES = 8;

/**
 * The test files cut into LANES files of about equal time, the longest first: each lane requires
 * its files, so a lane is one process (node's runner starts one process a file). A process start
 * and its module loading cost a few tenths of a second of CPU, paid once a lane instead of once
 * a file. Each file is still its own bundle with its own modules, as when it runs alone.
 */
function lanes(testFiles) {
  const weight = (f) => WEIGHT[f.replace(/^build\/test\//, '').replace(/\.test\.js$/, '')] ?? 1;
  const out = Array.from({ length: LANES }, () => ({ seconds: 0, files: [] }));
  for (const f of [...testFiles].sort((a, b) => weight(b) - weight(a))) {
    const least = out.reduce((m, x) => (x.seconds < m.seconds ? x : m));
    least.seconds += weight(f);
    least.files.push(f);
  }
  mkdirSync('build/test/lanes', { recursive: true });
  return out
    .filter((l) => l.files.length > 0)
    .sort((a, b) => b.seconds - a.seconds)
    .map((l, i) => {
      const path = join('build', 'test', 'lanes', `lane-${i + 1}.test.js`);
      writeFileSync(path, l.files.map((f) => `require(${JSON.stringify(resolve(f))});`).join('\n') + '\n');
      return path;
    });
}

const tAll = Date.now();
const e2e = !unitOnly && existsSync('scripts/e2e.mjs');
// code-server, once per machine (a fresh machine's first run): installed beside the checks and the
// unit tests, which leave a core partly idle, rather than before them
const codeServer =
  e2e && !existsSync(codeServerBin)
    ? beside('code-server install (once per machine)', 'node', ['scripts/codeServer.mjs', 'install'])
    : Promise.resolve(0);
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
  const suites = lanes([...files('build/test/unit'), ...files('build/test/integration')]);
  return step('unit and integration tests', 'node', ['--test', '--test-concurrency=2', '--enable-source-maps', ...suites]);
});
const [checked, tested, installed] = await Promise.all([checks, tests, codeServer]);
let status = checked || tested || installed;
if (e2e && status === 0) {
  // the tests, the CLI and the emulator are built already
  status = await step('end-to-end tests', 'node', ['scripts/e2e.mjs'], { RLRB_E2E_BUILT: '1' });
}
console.log(`test: ${status === 0 ? 'all passed' : 'FAILED'} (${seconds(tAll)} s)`);
process.exit(status);
