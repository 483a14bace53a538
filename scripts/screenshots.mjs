// Regenerates the README screenshots in media/screenshots/ from an e2e run: the journeys
// (dashboard, trajectory detail, a download), the share journeys, and the comparison's
// journeys when that e2e file exists. `--no-run` copies from the last run's
// test-results/e2e/ instead. media/screenshots/ is kept out of the VSIX (.vscodeignore).
// Usage: node scripts/screenshots.mjs [--no-run]
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const SHOTS = join('test-results', 'e2e');
const OUT = join('media', 'screenshots');
const COMPARE = ['build/test/e2e/compare.test.js'];

/** README name -> the e2e screenshot it is (the first match, in the order taken). */
/** @type {[string, RegExp][]} */
const WANTED = [
  ['dashboard.png', /^\d+-metrics\.png$/],
  ['trajectory.png', /^\d+-trajectory\.png$/],
  ['download.png', /^\d+-download-progress\.png$/],
  ['comparison.png', /^compare-01-panel\.png$/],
  ['link-opened.png', /^share-S2-link-opened-elsewhere\.png$/],
];

if (!process.argv.includes('--no-run')) {
  const build = spawnSync('node', ['esbuild.mjs', '--only=tests'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const files = ['build/test/e2e/journeys.test.js', 'build/test/e2e/share.test.js', ...COMPARE.filter((f) => existsSync(f))];
  const r = spawnSync('node', ['scripts/e2e.mjs', ...files], { stdio: 'inherit' });
  if (r.status !== 0) console.error(`the e2e run failed (exit ${r.status}); copying the screenshots it took`);
}

if (!existsSync(SHOTS)) {
  console.error(`no ${SHOTS}: run without --no-run first`);
  process.exit(1);
}
const taken = readdirSync(SHOTS).sort();
mkdirSync(OUT, { recursive: true });
let missing = 0;
for (const [name, re] of WANTED) {
  const from = taken.find((f) => re.test(f));
  if (!from) {
    console.error(`${name}: no screenshot matches ${re}`);
    missing++;
    continue;
  }
  copyFileSync(join(SHOTS, from), join(OUT, name));
  console.log(`${join(OUT, name)} <- ${from}`);
}
process.exit(missing > 0 ? 1 : 0);
