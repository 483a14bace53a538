import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cueText, hiddenSides } from '../../webview/scrollCue';

test('a table narrower than its columns says which side hides some; all shown, nothing is said', () => {
  assert.deepEqual(hiddenSides(1200, 820, 0), { left: false, right: true });
  assert.equal(cueText(hiddenSides(1200, 820, 0)), 'more columns: scroll sideways →');
  assert.equal(cueText(hiddenSides(1200, 820, 380)), '← more columns: scroll back');
  assert.equal(cueText(hiddenSides(1200, 820, 100)), '← more columns on both sides, scroll sideways →');
  assert.equal(cueText(hiddenSides(820, 820, 0)), '');
  assert.equal(cueText(hiddenSides(821, 820, 0)), '', 'a pixel of rounding is not a hidden column');
});
