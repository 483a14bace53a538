import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Vsce from '@vscode/vsce';

const vsce = createRequire(join(process.cwd(), 'package.json'))('@vscode/vsce') as typeof Vsce;

test('the VSIX holds the CHANGELOG, the icon and the walkthrough, and leaves the README screenshots out', async () => {
  const probe = join('media', 'screenshots', 'vsix-probe.png');
  mkdirSync(join('media', 'screenshots'), { recursive: true });
  writeFileSync(probe, 'x');
  try {
    const files = await vsce.listFiles({ cwd: process.cwd(), packageManager: vsce.PackageManager.None });
    for (const f of ['CHANGELOG.md', 'media/icon.png', 'media/walkthrough/openRun.md']) assert.ok(files.includes(f), `${f} is packed`);
    assert.deepEqual(
      files.filter((f) => f.startsWith('media/screenshots/')),
      [],
    );
  } finally {
    rmSync(probe, { force: true });
  }
});

test('package.json: the icon is a 128x128 PNG, each walkthrough step has its markdown, each keybinding is for the browser', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    icon: string;
    contributes: {
      walkthroughs: { steps: { media: { markdown: string } }[] }[];
      keybindings: { command: string; key: string; when: string }[];
      commands: { command: string }[];
    };
  };
  const png = readFileSync(pkg.icon);
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  for (const s of pkg.contributes.walkthroughs.flatMap((w) => w.steps)) assert.ok(readFileSync(s.media.markdown, 'utf8').startsWith('# '));
  const ids = new Set(pkg.contributes.commands.map((c) => c.command));
  assert.ok(pkg.contributes.keybindings.length >= 7);
  for (const k of pkg.contributes.keybindings) {
    assert.ok(ids.has(k.command), k.command);
    assert.equal(k.when, "activeWebviewPanelId == 'rlRunBrowser.trajectories'");
  }
});
