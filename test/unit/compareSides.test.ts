import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sideChoices } from '../../src/extension/compare/sides';

test('Compare with… offers the local runs and the reachable Hub repos; an unreachable repo is a line, not a choice', () => {
  const runs = [
    { name: 'a', root: '/r/a' },
    { name: 'b', root: '/r/b' },
  ];
  const err = (repo: string): string | undefined => (repo === 'me/down' ? 'fetch failed: ECONNREFUSED' : undefined);
  const c = sideChoices(runs, ['me/up', 'me/down'], err, '/r/a');
  assert.deepEqual(
    c.map((x) => [x.root ?? x.repo ?? null, x.label]),
    [
      ['/r/b', '$(graph-line) b'],
      ['me/up', '$(cloud) me/up'],
      [null, 'Not reachable now: me/down'],
    ],
  );
  assert.equal(
    sideChoices(runs, ['me/up'], () => undefined).some((x) => x.root === undefined && x.repo === undefined),
    false,
    'every repo reachable: no such line',
  );
});
