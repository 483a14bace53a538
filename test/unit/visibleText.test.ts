import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasBidiControl, visibleParts, visibleText } from '../../src/shared/visibleText';

test('every bidi control becomes a visible token, so "evil" cannot render as "live"', () => {
  assert.equal(visibleText('\u202Elive'), '<U+202E>live');
  for (const cp of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
    const s = `a${String.fromCodePoint(cp)}b`;
    assert.ok(hasBidiControl(s), cp.toString(16));
    assert.equal(visibleText(s), `a<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>b`);
  }
});

test('text without controls is unchanged, other non-ASCII included', () => {
  for (const s of ['', 'click(#ok)', 'café — ünïcode 日本', 'a\u200Bb']) {
    assert.equal(visibleText(s), s);
    assert.equal(hasBidiControl(s), false);
    assert.deepEqual(visibleParts(s), [{ text: s, control: false }]);
  }
});

test('the parts keep the text around each control, in order', () => {
  assert.deepEqual(visibleParts('x\u2066y\u2069'), [
    { text: 'x', control: false },
    { text: '<U+2066>', control: true },
    { text: 'y', control: false },
    { text: '<U+2069>', control: true },
  ]);
  assert.equal(
    visibleParts('\u202E\u202E')
      .map((p) => p.text)
      .join(''),
    '<U+202E><U+202E>',
  );
});
