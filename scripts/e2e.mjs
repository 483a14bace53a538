// The end-to-end suite: packages the VSIX, then runs test/e2e in a real VS Code
// (code-server) driven by Debian's Chromium: the files shared between two workbenches that run at
// once, each share in one process on one workbench (test/e2e/harness.ts); prints each file's time.
// Fails, never skips, when Chromium is missing; installs code-server when it is (once per machine).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as esbuild from 'esbuild';
import { codeServerBin, installCodeServer } from './codeServer.mjs';

if (!existsSync('/usr/bin/chromium')) {
  console.error(
    "e2e: Chromium is missing. Run `npm run setup` (it installs Debian's chromium), " +
      'or run only the unit and integration tests with `npm run test:unit`.',
  );
  process.exit(1);
}
// code-server, once per machine (`npm test` installs it beside the unit tests)
if (!existsSync(codeServerBin)) installCodeServer();
const t0 = Date.now();
// the VSIX: `npm run package`, its production build cut to what the VSIX holds (not the tests and benchmarks)
const packageScript = JSON.parse(readFileSync('package.json', 'utf8')).scripts.package;
const vsce = packageScript.split(' && ')[1];
if (!packageScript.startsWith('node esbuild.mjs --production && ') || !vsce?.startsWith('vsce package ')) {
  console.error(`e2e: the package script is not "node esbuild.mjs --production && vsce package ...": ${packageScript}`);
  process.exit(1);
}
const prod = spawnSync('node', ['esbuild.mjs', '--production', '--only=extension,cli,indexWorker,webviews'], { stdio: 'inherit' });
if (prod.status !== 0) process.exit(prod.status ?? 1);
const pack = spawnSync('sh', ['-c', `npx ${vsce}`], { stdio: ['ignore', 'ignore', 'inherit'] });
if (pack.status !== 0) process.exit(pack.status ?? 1);
const VSIX = 'dist/rl-run-browser.vsix';
const maps = zipEntries(VSIX).filter((n) => n.endsWith('.map'));
if (maps.length > 0) {
  console.error(`e2e: ${VSIX} holds source maps (.vscodeignore must exclude them): ${maps.join(', ')}`);
  process.exit(1);
}
// scripts/test.mjs built the tests and the emulator already
if (!process.env.RLRB_E2E_BUILT) {
  const build = spawnSync('node', ['esbuild.mjs', '--only=tests,emulator'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}
console.log(`e2e: packaged and built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
/** The e2e files (test/e2e/<name>.test.ts), in the order they run; `node scripts/e2e.mjs <file>...` runs only those (e.g. browser). */
const SUITE = [
  'journeys',
  'browser',
  'dashboard',
  'share',
  'inPlace',
  'browse',
  'overlay',
  'task',
  'compare',
  'problems',
  'verdict',
  'evalCharts',
  'behaviour',
  'credit',
  'behaviourViews',
  'evalBrowser',
  'a11y',
  'runsTable',
  'welcome',
];
/** Each file's seconds beside the other workbench (the mean of two fresh clones' CI on a quiet two-core machine), to give the workbenches equal shares. */
const WEIGHT = {
  journeys: 147,
  a11y: 130,
  share: 143,
  compare: 89,
  dashboard: 86,
  browser: 79,
  behaviourViews: 75,
  verdict: 56,
  evalCharts: 56,
  problems: 52,
  evalBrowser: 48,
  inPlace: 44,
  credit: 43,
  overlay: 41,
  behaviour: 37,
  welcome: 35,
  browse: 34,
  task: 34,
  runsTable: 28,
};

// a file named as test/e2e/x.test.ts, build/test/e2e/x.test.js or x
const asked = process.argv.slice(2).map((f) => basename(f).replace(/\.test\.[jt]s$/, ''));
for (const f of asked) {
  if (!existsSync(join('test', 'e2e', `${f}.test.ts`))) {
    console.error(`e2e: no such file: test/e2e/${f}.test.ts`);
    process.exit(2);
  }
}
// this run's screenshots only (each file writes its own, under its own prefix)
rmSync('test-results/e2e', { recursive: true, force: true });
const files = asked.length > 0 ? asked : SUITE;
const tRun = Date.now();
const first = await runSuite(files, 'first', shardCount(files));
// A real VS Code on a loaded two-core machine can miss a wait it makes in time alone. A file that fails
// runs once more, after the others, on a workbench of its own, and is named either way: a failure twice
// fails the suite, a pass on the second run is reported as flaky (never silently).
const failed = files.filter((f) => !first.passed.has(f));
const flaky = [];
const broken = [];
if (failed.length > 0) {
  console.error(
    `e2e: ${failed.join(', ')} FAILED; running ${failed.length === 1 ? 'it' : 'them'} once more to tell a flake from a failure`,
  );
  const second = await runSuite(failed, 'second', 1);
  for (const f of failed) (second.passed.has(f) ? flaky : broken).push(f);
}
console.log(
  `e2e: ${files.length - failed.length} of ${files.length} files passed on the first run, in ${((Date.now() - tRun) / 1000).toFixed(0)} s`,
);
if (flaky.length > 0) console.log(`e2e: FLAKY (failed, then passed on the second run): ${flaky.join(', ')}`);
if (broken.length > 0) console.log(`e2e: FAILED twice: ${broken.join(', ')}`);
const outside = first.outside && failed.length === 0;
if (outside) console.log(`e2e: FAILED outside any file (the workbench's start or stop, exit ${first.status})`);
process.exit(broken.length > 0 || outside ? 1 : 0);

/**
 * How many workbenches run the files at once: RLRB_E2E_WORKBENCHES, else 2 for more than a few files.
 * A journey mostly waits on the workbench (a page to load, a host to answer), so two workbenches on two
 * cores take about two thirds of one's time; each is the one workbench of its own test process.
 */
function shardCount(names) {
  const asked = Number(process.env.RLRB_E2E_WORKBENCHES);
  if (Number.isInteger(asked) && asked >= 1) return Math.min(asked, names.length);
  return names.length > 3 ? 2 : 1;
}

/** The files cut into `n` shares of about equal time, each share in the suite's order. */
function shares(names, n) {
  const load = Array.from({ length: n }, () => ({ seconds: 0, files: new Set() }));
  for (const f of [...names].sort((a, b) => (WEIGHT[b] ?? 30) - (WEIGHT[a] ?? 30))) {
    const least = load.reduce((m, x) => (x.seconds < m.seconds ? x : m));
    least.seconds += WEIGHT[f] ?? 30;
    least.files.add(f);
  }
  return load.map((x) => names.filter((f) => x.files.has(f))).filter((x) => x.length > 0);
}

/**
 * The given files on `n` workbenches at once, each share in one test process on one workbench (the
 * entry bundle loads its files in order, naming each for the harness); each file's time and result,
 * read from the summaries the harnesses write. With two, each line says which workbench printed it.
 */
async function runSuite(names, which, n) {
  const parts = shares(names, n);
  if (parts.length > 1) parts.forEach((p, i) => console.log(`e2e: workbench ${i + 1} of ${parts.length} runs ${p.join(', ')}`));
  mkdirSync('test-results', { recursive: true });
  const runs = await Promise.all(
    parts.map((p, i) => runShare(p, parts.length > 1 ? `${which}-${i + 1}` : which, parts.length > 1 ? `[${i + 1}] ` : '')),
  );
  const results = runs.flatMap((r) => r.results);
  console.log(`e2e: time per file (${which} run):`);
  for (const f of names) {
    const res = results.find((x) => x.file === `${f}.test.ts`);
    if (!res) console.log(`  ${f}.test.ts: did not run to its end`);
    else
      console.log(
        `  ${`${f}.test.ts`.padEnd(24)} ${res.seconds.toFixed(1).padStart(6)} s  ${res.journeys - res.failed} of ${res.journeys} journeys passed`,
      );
  }
  const passed = new Set(names.filter((f) => results.some((x) => x.file === `${f}.test.ts` && x.failed === 0)));
  const status = runs.find((r) => r.status !== 0)?.status ?? 0;
  return { passed, status, outside: status !== 0 && passed.size === names.length };
}

/** One share of the files in its own test process; its lines printed as they come, after `prefix`. */
async function runShare(names, which, prefix) {
  const entry = join('build', 'test', `e2e-${which}.js`);
  const contents = [
    "const { e2eFile } = require('./harness');",
    ...names.map((f) => `e2eFile(${JSON.stringify(`${f}.test.ts`)});\nrequire(${JSON.stringify(`./${f}.test`)});`),
  ].join('\n');
  await esbuild.build({
    stdin: { contents, resolveDir: join('test', 'e2e'), sourcefile: `e2e-${which}.ts`, loader: 'ts' },
    bundle: true,
    sourcemap: true,
    logLevel: 'warning',
    target: 'es2022',
    platform: 'node',
    format: 'cjs',
    outfile: entry,
    external: ['vscode', 'playwright-core'],
  });
  const summary = join('test-results', `e2e-${which}.jsonl`);
  rmSync(summary, { force: true });
  const child = spawn('node', ['--enable-source-maps', '--test-reporter=spec', entry], {
    stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', RLRB_E2E_SUMMARY: summary },
  });
  if (prefix) {
    prefixed(child.stdout, process.stdout, prefix);
    prefixed(child.stderr, process.stderr, prefix);
  }
  const status = await new Promise((res) => child.on('close', (code, signal) => res(code ?? (signal ? 1 : 0))));
  const results = existsSync(summary)
    ? readFileSync(summary, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
    : [];
  return { results, status };
}

/** Copies a stream's lines to `out`, each after `prefix` (a line is written whole, never mixed with the other workbench's). */
function prefixed(from, out, prefix) {
  let rest = '';
  from.setEncoding('utf8');
  from.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    if (lines.length > 0) out.write(lines.map((l) => prefix + l).join('\n') + '\n');
  });
  from.on('end', () => {
    if (rest) out.write(prefix + rest + '\n');
  });
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
