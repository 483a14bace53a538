// Runs every test: the typecheck, the linter and the format check, then unit and
// integration tests with node's test runner, then the end-to-end suite in a real VS Code.
// `--unit` stops after the unit and integration tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const unitOnly = process.argv.includes('--unit');
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  return r.status ?? 1;
};
const step = (name, cmd, args) => {
  const t0 = Date.now();
  const status = run(cmd, args);
  console.log(`test: ${name} ${status === 0 ? 'passed' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return status;
};

let status = 0;
status ||= step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
status ||= step('lint', 'npm', ['run', '--silent', 'lint']);
status ||= step('format check', 'npm', ['run', '--silent', 'format:check']);
if (status !== 0) process.exit(status);
if (run('node', ['esbuild.mjs']) !== 0) process.exit(1);
const files = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.test.js'))
        .map((f) => join(dir, f))
    : [];
const suites = [...files('build/test/unit'), ...files('build/test/integration')];
status = run('node', ['--test', '--test-concurrency=2', '--enable-source-maps', ...suites]);
if (!unitOnly && existsSync('scripts/e2e.mjs')) {
  const e2e = run('node', ['scripts/e2e.mjs']);
  status = status || e2e;
}
process.exit(status);
