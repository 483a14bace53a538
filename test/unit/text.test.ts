import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeNotification } from '../../src/extension/text';

/** VS Code's notification link syntax (vs/base/common/linkedText.ts), the pattern that must never match. */
const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const ICON = /\$\([a-z.\-~]+\)/i;

test('notification text: hostile links, icons, tags and control characters come out inert', () => {
  const hostile = [
    'repository not found [click to fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
    'file [x](https://attacker.example "title") here',
    '[a]  (command:x) and [b]\t(command:y)',
    '$(warning) $(sync~spin) token expired',
    '<a href="command:x">fix</a>',
    'name\u202egnp.exe',
    'two\nlines\r\u0007',
  ];
  for (const h of hostile) {
    const out = escapeNotification(h);
    assert.equal(out.match(LINK), null, out);
    assert.doesNotMatch(out, ICON);
    assert.doesNotMatch(out, /[<>\n\r\u0007\u202e]/);
  }
  assert.equal(escapeNotification('$(warning) x'), '$ (warning) x');
});

test('notification text: ordinary names and messages are unchanged', () => {
  for (const ok of ['Downloaded and verified o/r: resume iteration 39 into /runs/ckpt', 'iter_0000039 [partial] (42%)', 'a+b=c, 100% done'])
    assert.equal(escapeNotification(ok), ok);
});
