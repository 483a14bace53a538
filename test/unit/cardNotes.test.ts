import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECOMPUTED, judged, sourceNote, titleTag } from '../../webview/metrics/cardNotes';
import type { SeriesView } from '../../src/shared/protocol/metrics';

const base: SeriesView = { name: 'ws/c_mean', group: 'ws', x: [0], y: [0.1], total: 1, gaps: 0, last: { x: 0, y: 0.1 } };
const mark = { mark: 'fail', value: 0.046, source: 'report', tolerance: '', last: null, lastIteration: null } as const;

test('a card says where its line comes from: recomputed from the credit log, or no finite value (then judges nothing)', () => {
  assert.equal(sourceNote(base), '');
  assert.equal(titleTag(base), '');
  const rec: SeriesView = { ...base, recomputed: { twin: 'meanC', why: 'not logged' } };
  assert.equal(titleTag(rec), RECOMPUTED);
  assert.equal(sourceNote(rec), 'recomputed from the credit log (meanC): the metrics log does not log it');
  assert.match(sourceNote({ ...base, recomputed: { twin: 'meanC', why: 'no finite value logged' } }), /has no finite value of it$/);
  const none: SeriesView = { ...base, y: [null], gaps: 1, last: null, noFiniteValue: true, judgement: mark };
  assert.equal(titleTag(none), 'no finite value logged');
  assert.match(sourceNote(none), /^no finite value logged: .* nothing is judged$/);
  assert.equal(judged(none), false);
  assert.equal(judged({ ...base, judgement: mark }), true);
});
