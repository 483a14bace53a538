import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ALL_COMMANDS } from '../../src/extension/commands/ids';

test('every command package.json contributes is registered by one commands/ module, and no other', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { commands: { command: string }[] } };
  const contributed = pkg.contributes.commands.map((c) => c.command);
  assert.deepEqual([...ALL_COMMANDS].sort(), [...contributed].sort());
  assert.equal(new Set(ALL_COMMANDS).size, ALL_COMMANDS.length, 'an id is registered twice');
});
