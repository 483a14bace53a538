// Runs every test: unit and integration with node's test runner, then the end-to-end
// suite in a real VS Code. `--unit` runs only the first two.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const unitOnly = process.argv.includes('--unit');
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  return r.status ?? 1;
};

if (run('node', ['esbuild.mjs']) !== 0) process.exit(1);
const files = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.test.js'))
        .map((f) => join(dir, f))
    : [];
const suites = [...files('build/test/unit'), ...files('build/test/integration')];
let status = run('node', ['--test', '--test-concurrency=2', '--enable-source-maps', ...suites]);
if (!unitOnly && existsSync('scripts/e2e.mjs')) {
  const e2e = run('node', ['scripts/e2e.mjs']);
  status = status || e2e;
}
process.exit(status);
