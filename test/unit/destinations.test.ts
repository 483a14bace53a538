import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Destinations, defaultDest } from '../../src/extension/downloads/destinations';
import type { DestinationStore } from '../../src/extension/downloads/destinations';

function memStore(): DestinationStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(k: string) => data.get(k) as T | undefined,
    update: async (k: string, v: unknown) => {
      data.set(k, v);
    },
  };
}

test('destinations: the default is <base>/<owner>__<name>/<ckpt|hf|logs>, none without a base', () => {
  assert.equal(defaultDest('/b', 'o/r', 'resume'), join('/b', 'o__r', 'ckpt'));
  assert.equal(defaultDest('/b', 'o/r', 'hf'), join('/b', 'o__r', 'hf'));
  assert.equal(defaultDest('/b', 'o/r', 'logs'), join('/b', 'o__r', 'logs'));
  assert.equal(defaultDest(undefined, 'o/r', 'logs'), undefined);
  const setting: { base?: string } = {};
  const d = new Destinations(memStore(), () => setting.base);
  assert.equal(d.get('o/r', 'hf'), undefined);
  assert.equal(d.forCommand('o/r', 'hf'), './hf');
  assert.equal(d.iterationFolder('o/r', 'hf', 44), undefined);
  setting.base = '/b';
  assert.deepEqual(d.get('o/r', 'hf'), { path: join('/b', 'o__r', 'hf'), remembered: false });
});

test('destinations: a folder chosen for a repo and kind wins over the default, for that pair only', async () => {
  const store = memStore();
  const d = new Destinations(store, () => '/b');
  await d.remember('o/r', 'resume', '/runs/ckpt');
  assert.deepEqual(d.get('o/r', 'resume'), { path: '/runs/ckpt', remembered: true });
  assert.equal(d.path('o/r', 'hf'), join('/b', 'o__r', 'hf'));
  assert.equal(d.path('x/y', 'resume'), join('/b', 'x__y', 'ckpt'));
  assert.equal(d.iterationFolder('o/r', 'resume', 39), join('/runs/ckpt', 'iter_0000039'));
  assert.equal(d.forCommand('o/r', 'resume'), '/runs/ckpt');
  // a second instance over the same store (a reload) remembers it too
  assert.equal(new Destinations(store, () => undefined).path('o/r', 'resume'), '/runs/ckpt');
});

test('destinations: folders logs were fetched into are kept once each', async () => {
  const d = new Destinations(memStore(), () => undefined);
  assert.deepEqual(d.fetchedLogs(), []);
  await d.addFetchedLogs('/a');
  await d.addFetchedLogs('/b');
  await d.addFetchedLogs('/a');
  assert.deepEqual(d.fetchedLogs(), ['/a', '/b']);
});
