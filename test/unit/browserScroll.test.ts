import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scrollTopFor } from '../../webview/scrollMath';

const view = { scrollTop: 220, height: 110 };

test('nearest: a row in view stays put, one above goes to the top, one below to the bottom', () => {
  assert.equal(scrollTopFor({ top: 242, height: 22 }, view, 'nearest'), 220, 'in view');
  assert.equal(scrollTopFor({ top: 220, height: 22 }, view, 'nearest'), 220, 'the first row shown');
  assert.equal(scrollTopFor({ top: 308, height: 22 }, view, 'nearest'), 220, 'the last row shown');
  assert.equal(scrollTopFor({ top: 198, height: 22 }, view, 'nearest'), 198, 'the row above');
  assert.equal(scrollTopFor({ top: 330, height: 22 }, view, 'nearest'), 242, 'the row below, at the bottom');
  assert.equal(scrollTopFor({ top: 22_000, height: 22 }, view, 'nearest'), 21_912, 'far below');
  assert.equal(scrollTopFor({ top: 0, height: 22 }, view, 'nearest'), 0, 'the first row');
});

test('nearest: an item taller than the window shows its top, unless it already fills the window', () => {
  assert.equal(scrollTopFor({ top: 300, height: 400 }, view, 'nearest'), 300);
  assert.equal(scrollTopFor({ top: 100, height: 400 }, view, 'nearest'), 220, 'it fills the window');
});

test('start and center; never above the top', () => {
  assert.equal(scrollTopFor({ top: 500, height: 40 }, view, 'start'), 500);
  assert.equal(scrollTopFor({ top: 500, height: 40 }, view, 'center'), 465);
  assert.equal(scrollTopFor({ top: 10, height: 20 }, view, 'center'), 0);
});
