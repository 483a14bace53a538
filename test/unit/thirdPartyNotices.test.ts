/** The third-party notices shipped in the VSIX: every package the bundles contain, with its licence text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type * as Esbuild from 'esbuild';

// esbuild runs its own binary: loaded at run time from node_modules, not bundled into the test
const esbuild = createRequire(join(process.cwd(), 'package.json'))('esbuild') as typeof Esbuild;

interface Notices {
  text: string;
  packages: { name: string; version: string; license: string; dir: string; files: string[] }[];
}
type Make = (metafiles: { inputs: Record<string, unknown> }[]) => Notices;

// the build script's own module (plain .mjs), loaded as the build loads it
const load = async (): Promise<Make> =>
  ((await import(pathToFileURL(resolve('scripts/notices.mjs')).href)) as { thirdPartyNotices: Make }).thirdPartyNotices;

test('the notices name every package bundled into the CLI, each with the licence text it ships', async () => {
  const r = await esbuild.build({
    entryPoints: ['src/cli/bin.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const bundled = new Set(
    Object.keys(r.metafile.inputs).flatMap((i) => {
      const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i.slice(i.lastIndexOf('node_modules/')));
      return m ? [m[1]!] : [];
    }),
  );
  assert.ok(bundled.has('@modelcontextprotocol/sdk') && bundled.has('zod') && bundled.has('@huggingface/hub'), [...bundled].join());
  const n = (await load())([r.metafile]);
  assert.deepEqual(new Set(n.packages.map((p) => p.name)), bundled);
  for (const p of n.packages) {
    assert.ok(n.text.includes(`${p.name} ${p.version} (${p.license})`), p.name);
    for (const f of p.files) {
      assert.ok(n.text.includes(readFileSync(join(p.dir, f), 'utf8').trim().slice(0, 200)), `${p.name}/${f}`);
    }
  }
});
