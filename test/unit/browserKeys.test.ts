import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWorkbenchScrollKey } from '../../webview/trajectories/keys';
import type { KeyPress } from '../../webview/trajectories/keys';

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});
const table = { tagName: 'DIV' };

test("Alt+Up / Alt+Down, the workbench's previous / next trajectory, never scroll the page's scroller a page too", () => {
  assert.equal(isWorkbenchScrollKey(press('ArrowUp', { altKey: true }), table), true);
  assert.equal(isWorkbenchScrollKey(press('ArrowDown', { altKey: true }), table), true);
  assert.equal(isWorkbenchScrollKey(press('ArrowDown', { altKey: true }), { tagName: 'BODY' }), true);
  assert.equal(isWorkbenchScrollKey(press('ArrowDown', { altKey: true }), null), true);
});

test('the table keeps its own keys: arrows without Alt, other Alt chords, Shift+Alt (next turn) and Ctrl/Cmd chords', () => {
  assert.equal(isWorkbenchScrollKey(press('ArrowUp'), table), false, 'the table moves its selection itself');
  assert.equal(isWorkbenchScrollKey(press('PageDown', { altKey: true }), table), false);
  assert.equal(isWorkbenchScrollKey(press('ArrowLeft', { altKey: true }), table), false);
  assert.equal(isWorkbenchScrollKey(press('ArrowDown', { altKey: true, shiftKey: true }), table), false);
  assert.equal(isWorkbenchScrollKey(press('ArrowDown', { altKey: true, ctrlKey: true }), table), false);
  assert.equal(isWorkbenchScrollKey(press('ArrowUp', { altKey: true, metaKey: true }), table), false);
});

test('in a form control Alt+arrow keeps its own default (a list opens, the caret moves)', () => {
  for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT', 'select'])
    assert.equal(isWorkbenchScrollKey(press('ArrowDown', { altKey: true }), { tagName }), false, tagName);
  assert.equal(isWorkbenchScrollKey(press('ArrowUp', { altKey: true }), { tagName: 'DIV', isContentEditable: true }), false);
});
