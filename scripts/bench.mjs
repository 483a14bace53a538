// Builds and runs every benchmark; each prints its figures and puts them in its section of bench/results.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const only = process.argv[2];
if (spawnSync('node', ['esbuild.mjs', '--only=bench,cli,emulator,webviews,indexWorker'], { stdio: 'inherit' }).status !== 0)
  process.exit(1);
const benches = [
  'logEngine',
  'indexCache',
  'coldReport',
  'download',
  'inPlace',
  'webview',
  'compare',
  'workbench',
  'metricsMemory',
  'runsTable',
  'dataset',
  'integrity',
].filter((b) => !only || b === only);
let status = 0;
for (const b of benches) {
  const f = `build/bench/${b}.js`;
  // the webviews as they ship: minified
  if (b === 'webview' && spawnSync('node', ['esbuild.mjs', '--only=webviews', '--production'], { stdio: 'inherit' }).status !== 0)
    process.exit(1);
  // the real workbench installs the VSIX as it ships (production build of everything)
  if (b === 'workbench' && spawnSync('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0)
    process.exit(1);
  if (!existsSync(f)) continue;
  console.log(`\n== ${b}`);
  const r = spawnSync('node', ['--expose-gc', f], { stdio: 'inherit' });
  status ||= r.status ?? 1;
}
process.exit(status);
