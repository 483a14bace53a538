import type { TrajectoryQuery } from '../../src/shared/shapes';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryChips, queryHeader, withTag } from '../../src/shared/queryChips';
import { isQuery } from '../../src/shared/protocol';
import { copyFilter } from '../../src/extension/trajectories/queryViews';

const EMPTY: TrajectoryQuery = { filter: {}, sort: [] };

test('a tag click adds one visible chip per tag; removing the chip drops that tag only', () => {
  const q = withTag(withTag(EMPTY, 'repeat'), 'falseDone');
  assert.deepEqual(q.filter.tags, ['repeat', 'falseDone']);
  assert.equal(withTag(q, 'repeat'), q, 'a second click on the same tag changes nothing');
  const chips = queryChips(q);
  assert.deepEqual(
    chips.map((c) => [c.id, c.label]),
    [
      ['tag-repeat', 'tag repeat'],
      ['tag-falseDone', 'tag false done'],
    ],
  );
  assert.deepEqual(chips[0]!.without(q).filter, { tags: ['falseDone'] });
  assert.deepEqual(chips[1]!.without(chips[0]!.without(q)).filter, {});
  assert.equal(queryHeader(q, 3, 40), '3 of 40 trajectories · tag repeat · tag false done');
});

test('the wire accepts known tag names once each, and the engine filter keeps them', () => {
  assert.equal(isQuery({ filter: { tags: ['repeat', 'cycle'] }, sort: [] }), true);
  assert.equal(isQuery({ filter: { tags: ['loops'] }, sort: [] }), false);
  assert.equal(isQuery({ filter: { tags: ['repeat', 'repeat'] }, sort: [] }), false);
  assert.equal(isQuery({ filter: { tags: 'repeat' }, sort: [] }), false);
  assert.deepEqual(copyFilter({ tags: ['cycle'] }), { tags: ['cycle'] });
  assert.deepEqual(copyFilter({ tags: [] }), {});
});
