import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { RangeCache } from '../../src/core/hub/inPlace/rangeCache';
import { hubRefText, parseHubRef, parseRemembered } from '../../src/core/hub/inPlace/hubRef';
import { runNode } from '../../src/extension/trees/treeModel';

const KEY = 'ab'.repeat(32);

test('the range cache returns bytes inside a cached range, and ignores (and deletes) a file whose size is not its name', async () => {
  const c = new RangeCache(tempDir());
  await c.put(KEY, 100, Buffer.from('0123456789'));
  assert.equal((await c.get(KEY, 102, 3))?.toString(), '234');
  assert.equal(await c.get(KEY, 105, 10), undefined, 'past the end of the range');
  // a damaged cache: the name says 10 bytes, the file holds 4
  writeFileSync(join(c.dir, KEY, '100-10'), 'oops');
  assert.equal(await c.get(KEY, 102, 3), undefined);
  assert.deepEqual(readdirSync(join(c.dir, KEY)), []);
  // foreign names are never read
  writeFileSync(join(c.dir, KEY, '0-4'), 'abcd');
  writeFileSync(join(c.dir, KEY, '00-4'), 'abcd');
  assert.deepEqual(await c.ranges(KEY), [{ offset: 0, length: 4 }]);
  await assert.rejects(c.get('../../etc', 0, 1), /not a content hash/);
});

test('the range cache stays under its size, dropping the least recently used ranges', async () => {
  const c = new RangeCache(tempDir(), 25);
  await c.put(KEY, 0, Buffer.alloc(10, 1));
  await new Promise((r) => setTimeout(r, 20));
  await c.put(KEY, 10, Buffer.alloc(10, 2));
  await new Promise((r) => setTimeout(r, 20));
  await c.put(KEY, 20, Buffer.alloc(10, 3));
  assert.deepEqual(
    (await c.ranges(KEY)).map((r) => r.offset).sort((a, b) => a - b),
    [10, 20],
  );
});

test('hub:owner/name[@revision] parses, and anything else is a one-line reason', () => {
  assert.deepEqual(parseHubRef('hub:acme/run-1'), { repo: 'acme/run-1', revision: 'main' });
  assert.deepEqual(parseHubRef('hub:acme/run-1@v2'), { repo: 'acme/run-1', revision: 'v2' });
  assert.equal(hubRefText({ repo: 'acme/run-1', revision: 'main' }), 'hub:acme/run-1');
  assert.match(parseHubRef('hub:acme') as string, /not a repo id/);
  assert.match(parseHubRef('hub:acme/x@../../y') as string, /not a revision/);
});

test('a run read in place shows a cloud and "on the Hub" in the Local runs list', () => {
  const n = runNode('hub:acme/run-1', 'acme/run-1', undefined, 0, 1, 'on the Hub');
  assert.equal(n.icon, 'cloud');
  assert.match(n.description ?? '', /^on the Hub · /);
  assert.equal(runNode('/r', 'r', undefined, 0, 1).icon, 'graph-line');
});

test('the runs read in place a workspace remembers are read back as untrusted input: a bad entry skips that entry only, in one line', () => {
  const where = 'workspace state rlRunBrowser.inPlaceRuns';
  const r = parseRemembered(['hub:acme/run-1', 'hub:acme/run-1', 7, 'hub:acme/x@../../y', '/etc/passwd', 'hub:acme/run-2@v2'], where);
  assert.deepEqual(r.refs, [
    { repo: 'acme/run-1', revision: 'main' },
    { repo: 'acme/run-2', revision: 'v2' },
  ]);
  assert.equal(r.problems.length, 3);
  assert.match(r.problems[0]!, /^workspace state rlRunBrowser\.inPlaceRuns\[2\]: not a hub:owner\/name\[@revision\] text; skipped$/);
  assert.match(r.problems[1]!, /\[3\]: ".*" is not a revision/);
  assert.ok(r.problems.every((p) => !p.includes('\n')));
  assert.deepEqual(parseRemembered(undefined, where), { refs: [], problems: [] });
  assert.deepEqual(parseRemembered({ a: 1 }, where), { refs: [], problems: [`${where}: not a list; ignored`] });
  const many = parseRemembered(
    Array.from({ length: 60 }, (_, i) => `hub:acme/r${i}`),
    where,
  );
  assert.equal(many.refs.length, 50);
  assert.match(many.problems[0]!, /10 entries past the first 50 ignored/);
});
