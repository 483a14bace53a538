import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLACEHOLDER_MAX, destinationPrompt } from '../../src/extension/downloads/destinationPrompt';

test('the destination question: a short placeholder read whole, the explanation in the title', () => {
  for (const kind of ['resume', 'hf', 'logs'] as const) {
    const p = destinationPrompt('me/run', kind);
    assert.ok(p.placeHolder.length <= PLACEHOLDER_MAX, `${kind}: "${p.placeHolder}"`);
    assert.ok(p.title.startsWith('me/run: '));
  }
  assert.match(destinationPrompt('me/run', 'resume').title, /latest_checkpointed_iteration\.txt/);
  assert.match(destinationPrompt('me/run', 'logs').note, /Change Download Destination/);
});
