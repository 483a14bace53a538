import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstRun, WALKTHROUGH_SHOWN } from '../../src/extension/welcome/firstRun';
import type { FlagStore } from '../../src/extension/welcome/firstRun';
import { DOWNLOAD_COMMANDS } from '../../src/extension/commands/ids';

interface Manifest {
  contributes: {
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    walkthroughs: { id: string; steps: { title: string; description: string }[] }[];
  };
}
const manifest = (): Manifest => JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as Manifest;

test("a followed repo's context menu in the Hub tree has Download Latest, Compare with… and Open on the Hub", () => {
  const items = manifest().contributes.menus['view/item/context'] ?? [];
  const onRepo = items.filter((m) => m.when === 'view == rlRunBrowser.hub && viewItem == hubRepo' && !m.group?.startsWith('inline'));
  for (const c of ['rlRunBrowser.downloadLatest', 'rlRunBrowser.compareWith', 'rlRunBrowser.openOnHub', 'rlRunBrowser.openLogsInPlace'])
    assert.ok(
      onRepo.some((m) => m.command === c),
      `${c} in the repo's context menu`,
    );
  assert.ok((DOWNLOAD_COMMANDS as readonly string[]).includes('rlRunBrowser.downloadLatest'), 'a registered command');
});

test('the walkthrough steps are plain text: the Welcome page shows backticks as they are', () => {
  const [w] = manifest().contributes.walkthroughs;
  assert.ok(w && w.steps.length >= 5);
  for (const s of w.steps) {
    assert.doesNotMatch(s.description, /`/, s.title);
    assert.doesNotMatch(s.title, /[`*_]/, s.title);
  }
});

/** A memento in memory. */
function memory(): FlagStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(k: string, d: T): T => (values.has(k) ? (values.get(k) as T) : d),
    update: (k: string, v: unknown): Promise<void> => (values.set(k, v), Promise.resolve()),
  };
}

const on = { openOnFirstRun: true, openOnInstall: true };

test('the walkthrough opens on the first activation only, and not when walkthroughs on install are turned off', async () => {
  const store = memory();
  assert.equal(await firstRun(store, on), true, 'first activation');
  assert.equal(store.values.get(WALKTHROUGH_SHOWN), true);
  assert.equal(await firstRun(store, on), false, 'second activation');
  const off = memory();
  assert.equal(await firstRun(off, { ...on, openOnInstall: false }), false, 'openOnInstall off');
  assert.equal(await firstRun(off, on), false, 'and not later either: the first activation has passed');
});

test('rlRunBrowser.walkthrough.openOnFirstRun off: the walkthrough never opens, and the first run is kept for when it is on', async () => {
  const store = memory();
  assert.equal(await firstRun(store, { ...on, openOnFirstRun: false }), false);
  assert.equal(await firstRun(store, { ...on, openOnFirstRun: false }), false);
  assert.equal(store.values.has(WALKTHROUGH_SHOWN), false, 'the flag untouched');
  assert.equal(await firstRun(store, on), true, 'turned on: the first activation with it on opens it');
  assert.equal(await firstRun(store, on), false, 'once');
});

test("the setting that keeps the walkthrough closed is the extension's own, application-scoped and described", () => {
  const props = (
    JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown; markdownDescription?: string }> } };
    }
  ).contributes.configuration.properties;
  const p = props['rlRunBrowser.walkthrough.openOnFirstRun'];
  assert.equal(p?.scope, 'application');
  assert.equal(p?.default, true);
  assert.ok((p?.markdownDescription ?? '').length > 40);
});
