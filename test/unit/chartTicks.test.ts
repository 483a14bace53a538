import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spacedBounds } from '../../src/shared/chartTicks';

const ticks = (...v: number[]): { value: number }[] => v.map((value) => ({ value }));
const values = (t: { value: number }[]): number[] => t.map((x) => x.value);

test('a round tick crowding the first or last iteration is dropped; the bound stays', () => {
  assert.deepEqual(values(spacedBounds(ticks(9, 10, 20, 30, 40, 44))), [9, 20, 30, 40, 44], '10 prints over 9');
  assert.deepEqual(values(spacedBounds(ticks(0, 10, 20, 30, 40, 44))), [0, 10, 20, 30, 40, 44], '44 is 4 from 40: room enough');
  assert.deepEqual(values(spacedBounds(ticks(0, 10, 20, 30, 40, 41))), [0, 10, 20, 30, 41]);
  assert.deepEqual(values(spacedBounds(ticks(9, 10, 20))), [9, 10, 20], 'three ticks: left as they are');
});
