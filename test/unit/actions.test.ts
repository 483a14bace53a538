import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAction, sameAction, isDoneAction } from '../../src/core/credit/actions';

test('parses keyword, positional, list, string and bare values', () => {
  const a = parseAction('click(point_2d=[412, 88])')!;
  assert.equal(a.name, 'click');
  assert.deepEqual(a.args.get('point_2d'), [412, 88]);
  const w = parseAction('write(message="a, b) \\"c\\" \'d\'")')!;
  assert.equal(w.args.get('message'), 'a, b) "c" \'d\'');
  const s = parseAction("scroll(direction='down', amount=3)")!;
  assert.equal(s.args.get('direction'), 'down');
  assert.equal(s.args.get('amount'), 3);
  const p = parseAction('switch_tab(2)')!;
  assert.equal(p.args.get('#0'), 2);
  assert.equal(parseAction('go_back()')!.args.size, 0);
  assert.equal(parseAction('  wait( )  ')!.name, 'wait');
  assert.deepEqual(parseAction('f(x=True, y=None, z=-1.5e2,)')!.args.get('z'), -150);
});

test('rejects text that is not one tool call', () => {
  assert.equal(parseAction('click(point_2d=[1, 2]'), null);
  assert.equal(parseAction('click(point_2d=[1, 2]) extra'), null);
  assert.equal(parseAction('<script>alert(1)</script>'), null);
  assert.equal(parseAction('write(message="unterminated)'), null);
  assert.equal(parseAction(''), null);
});

test('points match within the click tolerance on both axes, inclusive', () => {
  const o = { clickTolerance: 20, keyCaseInsensitive: true };
  assert.ok(sameAction('click(point_2d=[100, 100])', 'click(point_2d=[120, 80])', o));
  assert.ok(!sameAction('click(point_2d=[100, 100])', 'click(point_2d=[121, 100])', o));
  assert.ok(!sameAction('click(point_2d=[100, 100])', 'click(point_2d=[100, 79])', o));
  assert.ok(!sameAction('click(point_2d=[100, 100])', 'hover(point_2d=[100, 100])', o));
  assert.ok(sameAction('click(point_2d=[100, 100])', 'click(point_2d=[105, 100])', { clickTolerance: 5, keyCaseInsensitive: true }));
  assert.ok(!sameAction('click(point_2d=[100, 100])', 'click(point_2d=[106, 100])', { clickTolerance: 5, keyCaseInsensitive: true }));
});

test('key names match case-insensitively only when the setting says so', () => {
  const on = { clickTolerance: 20, keyCaseInsensitive: true };
  const off = { clickTolerance: 20, keyCaseInsensitive: false };
  assert.ok(sameAction('press_keys(keys=["enter"])', 'press_keys(keys=["Enter"])', on));
  assert.ok(!sameAction('press_keys(keys=["enter"])', 'press_keys(keys=["Enter"])', off));
  assert.ok(!sameAction('press_keys(keys=["enter"])', 'press_keys(keys=["Enter", "a"])', on));
  // messages are not keys: case matters
  assert.ok(!sameAction('write(message="Hello")', 'write(message="hello")', on));
  assert.ok(sameAction('write(message="x")', "write(message='x')", on));
});

test('argument sets must agree; unparseable texts compare trimmed', () => {
  assert.ok(!sameAction('scroll(direction="down", amount=3)', 'scroll(direction="down")'));
  assert.ok(sameAction('scroll(amount=3, direction="down")', 'scroll(direction="down", amount=3)'));
  assert.ok(sameAction('free text ', 'free text'));
  assert.ok(!sameAction('free text', 'other text'));
  assert.ok(isDoneAction(' done(response="x")'));
  assert.ok(!isDoneAction('undone()'));
});
