// One build script: the extension host (cjs, vscode external), each webview (browser),
// the CLI, the Hub emulator, and the tests.
import * as esbuild from 'esbuild';
import { readdirSync, statSync, chmodSync, existsSync, mkdirSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { thirdPartyNotices } from './scripts/notices.mjs';

const production = process.argv.includes('--production');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);

function walk(dir, pred, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, pred, out);
    else if (pred(p)) out.push(p);
  }
  return out;
}

/** @type {import('esbuild').BuildOptions} */
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', target: 'es2022' };

/** the metafiles of the shipped bundles: the packages they contain get their notices (dist/THIRD_PARTY_NOTICES.txt) */
const shipped = [];
/** @param {import('esbuild').BuildResult | false | undefined} r */
const keepMeta = (r) => {
  if (r && r.metafile) shipped.push(r.metafile);
  return r;
};
const SHIPPED = ['extension', 'cli', 'indexWorker', 'webviews'];

const targets = {
  extension: () =>
    existsSync('src/extension/extension.ts') &&
    esbuild
      .build({
        ...common,
        metafile: true,
        entryPoints: ['src/extension/extension.ts'],
        outfile: 'dist/extension.js',
        platform: 'node',
        format: 'cjs',
        external: ['vscode'],
      })
      .then(keepMeta),
  // ES modules split by command (src/cli/main.ts loads each command when it runs), so a short
  // command reads and compiles its own code only, not the Hub client, the MCP server and the
  // Parquet writer; dist/cli.js is the bin that loads dist/cli.mjs
  cli: async () => {
    for (const f of readdirSync('dist')) if (/^cli-.*\.mjs(\.map)?$/.test(f)) rmSync(join('dist', f));
    const r = await esbuild.build({
      ...common,
      metafile: true,
      entryPoints: { cli: 'src/cli/bin.ts' },
      outdir: 'dist',
      outExtension: { '.js': '.mjs' },
      chunkNames: 'cli-[hash]',
      splitting: true,
      platform: 'node',
      format: 'esm',
      // what the bundled CommonJS packages and the index worker's path expect of a module
      banner: {
        js: [
          "import { createRequire as rlrbCreateRequire } from 'node:module';",
          "import { fileURLToPath as rlrbFileURLToPath } from 'node:url';",
          "import { dirname as rlrbDirname } from 'node:path';",
          'const require = rlrbCreateRequire(import.meta.url);',
          'const __filename = rlrbFileURLToPath(import.meta.url);',
          'const __dirname = rlrbDirname(__filename);',
        ].join('\n'),
      },
      // `rlrb --version`
      define: { RLRB_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
    });
    writeFileSync('dist/cli.js', "#!/usr/bin/env node\n'use strict';\nvoid import('./cli.mjs');\n");
    chmodSync('dist/cli.js', 0o755);
    keepMeta(r);
  },
  // the worker process that indexes one part of a large log (one per part, forked by
  // src/core/log/threads/pool.ts); found next to the extension's and the CLI's bundle
  indexWorker: () =>
    esbuild
      .build({
        ...common,
        metafile: true,
        entryPoints: ['src/core/log/threads/indexWorker.ts'],
        outfile: 'dist/indexWorker.js',
        platform: 'node',
        format: 'cjs',
      })
      .then(keepMeta),
  emulator: () =>
    existsSync('test/hubEmulator/main.ts') &&
    esbuild.build({ ...common, entryPoints: ['test/hubEmulator/main.ts'], outfile: 'dist/emulator.js', platform: 'node', format: 'cjs' }),
  // one folder a webview, its entry main.ts; the bundle keeps the name the host loads (dist/webview/<name>.js)
  webviews: () => {
    const names = ['metrics', 'trajectories', 'report', 'controls', 'task', 'sideBySide', 'compare', 'runsTable'];
    const entries = Object.fromEntries(names.map((n) => [n, join('webview', n, 'main.ts')]).filter(([, f]) => existsSync(f)));
    if (Object.keys(entries).length === 0) return;
    return esbuild
      .build({
        ...common,
        metafile: true,
        entryPoints: entries,
        outdir: 'dist/webview',
        platform: 'browser',
        format: 'iife',
      })
      .then(keepMeta);
  },
  tests: () => {
    // a test file moved or removed leaves no stale bundle that scripts/test.mjs would still run
    rmSync('build/test', { recursive: true, force: true });
    const entries = walk('test', (p) => p.endsWith('.test.ts') && !p.includes('/inhost/'));
    const inhost = existsSync('test/inhost/suite.test.ts')
      ? esbuild.build({
          ...common,
          minify: false,
          sourcemap: true,
          entryPoints: ['test/inhost/suite.test.ts'],
          outfile: 'build/inhost/suite.js',
          platform: 'node',
          format: 'cjs',
          external: ['vscode'],
        })
      : undefined;
    if (entries.length === 0) return inhost;
    return Promise.all([
      inhost,
      esbuild.build({
        ...common,
        minify: false,
        sourcemap: true,
        entryPoints: entries,
        outdir: 'build/test',
        outbase: 'test',
        platform: 'node',
        format: 'cjs',
        // a native addon: loaded from node_modules at run time
        external: ['vscode', 'playwright-core', '@duckdb/node-api'],
      }),
    ]);
  },
  bench: () => {
    const entries = walk('bench', (p) => p.endsWith('.ts'));
    if (entries.length === 0) return;
    return esbuild.build({
      ...common,
      minify: false,
      entryPoints: entries,
      outdir: 'build/bench',
      outbase: 'bench',
      platform: 'node',
      format: 'cjs',
      external: ['playwright-core'],
    });
  },
};

mkdirSync('dist', { recursive: true });
const names = only ? only.split(',') : Object.keys(targets);
const t0 = Date.now();
await Promise.all(names.map((n) => targets[n]()));
// codicons for the webviews: the font, and the stylesheet with only the icons the panels
// use (the full one has ~600 rules for the page to parse and match)
const codicons = 'node_modules/@vscode/codicons/dist';
const ICONS = ['pin', 'pinned', 'arrow-swap', 'warning', 'fold', 'error', 'star-full', 'circle-slash', 'check', 'close', 'link'];
// the behaviour tags' (webview/trajectories/tags.ts)
ICONS.push('redo', 'sync', 'ellipsis', 'debug-stop', 'debug-step-out', 'pass-filled', 'symbol-string', 'merge', 'diff', 'dash');
if (existsSync(codicons)) {
  mkdirSync('dist/webview', { recursive: true });
  copyFileSync(join(codicons, 'codicon.ttf'), join('dist/webview', 'codicon.ttf'));
  const css = readFileSync(join(codicons, 'codicon.css'), 'utf8');
  const icons = css.split('\n').filter((l) => ICONS.some((i) => l.startsWith(`.codicon-${i}:before `)));
  if (icons.length !== ICONS.length) throw new Error(`codicon.css lacks one of ${ICONS.join(', ')}`);
  const head = css.slice(0, css.indexOf('/*---------------------\n *  Modifiers'));
  writeFileSync(join('dist/webview', 'codicon.css'), `${head}\n${icons.join('\n')}\n`);
  shipped.push({ inputs: { [join(codicons, 'codicon.css')]: {} } });
}
// the notices cover every shipped bundle, so they are written by a build of all of them
if (SHIPPED.every((n) => names.includes(n))) writeFileSync(join('dist', 'THIRD_PARTY_NOTICES.txt'), thirdPartyNotices(shipped).text);
console.log(`built ${names.join(', ')} in ${Date.now() - t0} ms`);
