import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sideChoices, sidePick } from '../../src/extension/compare/sides';

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

test('the quick pick of a side: the unreachable repos are said in its title, never as a last row (a separator there is not drawn)', () => {
  const err = (repo: string): string | undefined => (repo === 'me/down' ? 'the Hub answered 503' : undefined);
  const p = sidePick(sideChoices([{ name: 'b', root: '/r/b' }], ['me/up', 'me/down'], err));
  assert.deepEqual(
    p.rows.map((x) => x.root ?? x.repo),
    ['/r/b', 'me/up'],
  );
  assert.equal(p.title, 'Not reachable now: me/down (listing it failed just now; the Hub view says why)');
  assert.equal(sidePick(sideChoices([], ['me/up'], () => undefined)).title, undefined, 'every repo reachable: no title');
});
