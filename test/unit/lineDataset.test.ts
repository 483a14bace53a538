import { test } from 'node:test';
import assert from 'node:assert/strict';
import { levelDataset, lineDataset, translucent } from '../../webview/lineDataset';

test('a chart line: thin, no dots, points that answer the tooltip nearby; the look given wins', () => {
  const pts = [
    { x: 1, y: 0.5 },
    { x: 2, y: null },
  ];
  const d = lineDataset('A', pts, '#ff0000');
  assert.equal(d.label, 'A');
  assert.equal(d.data, pts);
  assert.equal(d.borderColor, '#ff0000');
  assert.equal(d.backgroundColor, '#ff0000');
  assert.equal(d.borderWidth, 1.5);
  assert.equal(d.pointRadius, 0);
  assert.equal(d.pointHitRadius, 6);
  const thick = lineDataset('B', pts, '#00f', { borderWidth: 2, pointRadius: 3, borderDash: [3, 3] });
  assert.equal(thick.borderWidth, 2);
  assert.equal(thick.pointRadius, 3);
  assert.deepEqual(thick.borderDash, [3, 3]);
});

test('a level line spans the x range at its y, dashed; none without a range', () => {
  const z = levelDataset('0', { min: 3, max: 40 }, 0, '#888');
  assert.deepEqual(z.data, [
    { x: 3, y: 0 },
    { x: 40, y: 0 },
  ]);
  assert.deepEqual(z.borderDash, [4, 4]);
  assert.equal(z.borderWidth, 1);
  assert.deepEqual(levelDataset('0', {}, 0, '#888').data, []);
  assert.deepEqual(levelDataset('t', { min: 0, max: 1 }, 2, '#888', { borderDash: [4, 3] }).borderDash, [4, 3]);
});

test("a band's colour: a hex colour at 15% (or the alpha given), any other form as it is", () => {
  assert.equal(translucent('#abc'), '#aabbcc26');
  assert.equal(translucent('#a0b0c0', '80'), '#a0b0c080');
  assert.equal(translucent('rgb(1, 2, 3)'), 'rgb(1, 2, 3)');
});
