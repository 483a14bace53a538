import { test } from 'node:test';
import assert from 'node:assert/strict';
import { showsAdvantage, unlabeledNote } from '../../webview/trajectories/turnWalk';

const plain = { labeled: false, At: 0.4472, aTMismatch: false, signFlip: false };

test('an unlabeled turn whose A_t is the trajectory’s A does not repeat "A → A_t" on every turn; the header says so once', () => {
  assert.equal(showsAdvantage(plain, 0.4472), false);
  assert.equal(showsAdvantage({ ...plain, At: null }, 0.4472), false, 'no A_t logged: nothing to say');
  assert.equal(showsAdvantage({ ...plain, At: 0.5 }, 0.4472), true, 'a different A_t is news');
  assert.equal(showsAdvantage({ ...plain, aTMismatch: true }, 0.4472), true);
  assert.equal(showsAdvantage({ ...plain, signFlip: true }, 0.4472), true);
  assert.equal(showsAdvantage({ ...plain, labeled: true }, 0.4472), true, 'a labeled turn always shows it');
  assert.equal(
    unlabeledNote([plain, plain, plain], 0.4472),
    'Every turn is unlabeled with A_t = A (no credit): their A → A_t line is left out.',
  );
  assert.equal(
    unlabeledNote([plain, { ...plain, labeled: true }], 0.4472),
    '1 of 2 turns are unlabeled with A_t = A (no credit): their A → A_t line is left out.',
  );
  assert.equal(unlabeledNote([{ ...plain, labeled: true }], 0.4472), '');
});
