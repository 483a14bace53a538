import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Vsce from '@vscode/vsce';

// vsce is loaded at run time, not bundled into the test (it is a large CommonJS tool)
const vsce = createRequire(join(process.cwd(), 'package.json'))('@vscode/vsce') as typeof Vsce;

test('the VSIX holds the bundles but no source map, even when a development build left maps in dist', async () => {
  const dir = join('dist', 'webview');
  const probe = join(dir, 'vsix-probe.js.map');
  mkdirSync(dir, { recursive: true });
  writeFileSync(probe, '{}');
  try {
    const files = await vsce.listFiles({ cwd: process.cwd(), packageManager: vsce.PackageManager.None });
    assert.deepEqual(
      files.filter((f) => f.endsWith('.map')),
      [],
    );
    const bundles = readdirSync(dir).filter((f) => f.endsWith('.js'));
    for (const b of bundles) assert.ok(files.includes(`dist/webview/${b}`), `${b} is packed`);
    assert.ok(files.includes('package.json'));
    // the index worker is its own bundle, loaded next to dist/extension.js
    assert.ok(files.includes('dist/indexWorker.js'), 'dist/indexWorker.js is packed');
    // the licences of the packages in the bundles (written by a build of every shipped bundle)
    assert.ok(existsSync(join('dist', 'THIRD_PARTY_NOTICES.txt')), 'the build wrote dist/THIRD_PARTY_NOTICES.txt');
    assert.ok(files.includes('dist/THIRD_PARTY_NOTICES.txt'), 'dist/THIRD_PARTY_NOTICES.txt is packed');
    // the F5 set-up (.vscode/launch.json, tasks.json) is for this repository, not the VSIX
    assert.ok(existsSync(join('.vscode', 'launch.json')), 'the repository has its launch configuration');
    assert.deepEqual(
      files.filter((f) => f.startsWith('.vscode/')),
      [],
    );
  } finally {
    rmSync(probe, { force: true });
  }
});
