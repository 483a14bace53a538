import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FastScanner } from '../../src/core/log/fastScan';
import { buildSchemaTables } from '../../src/core/record/schema';
import { DEFAULT_MATCH, sameAction } from '../../src/core/credit/actions';
import type { MatchOptions } from '../../src/core/credit/actions';

/** Candidate lists whose first entry is the executed action: each form the byte comparison reads, and some it leaves to the parser. */
const LISTS: string[][] = [
  ['click(point_2d=[100, 200])', 'click(point_2d=[110, 195])', 'click(point_2d=[140, 200])', 'click(point_2d = [100,200])'],
  ['type(text="hello")', "type(text='hello')", 'type(text="Hello")', 'type(text="hello", enter=1)', 'type(text="hell")'],
  ['press_keys(keys=["Escape"])', "press_keys(keys=['Escape'])", 'press_keys(keys=["escape"])', 'press_keys(keys=["Tab"])'],
  ['key(key="Enter")', 'key(key="enter")', 'key(key="ENTER")', 'key(key="Tab")'],
  ['goto_url(url="https://a.example/x")', 'goto_url("https://a.example/x")', 'goto_url(url="https://a.example/y")'],
  ['scroll(dy=3, dx=0)', 'scroll(dx=0, dy=3)', 'scroll(dy=3)', 'scroll(dy=4, dx=0)'],
  ['write(message="東京")', 'write(message="\\u6771\\u4eac")', 'write(message="京都")', 'write(message="q\\"x")'],
  ['switch_tab(index=1)', 'switch_tab(index=01)', 'switch_tab(index=1.0)', 'switch_tab(1)', 'hover(index=1)', 'not an action'],
];

function scanFlags(candidates: string[], match: MatchOptions): (boolean[] | null | undefined)[] {
  const line = JSON.stringify({ iteration: 0, group: 0, rollout: 0, reward: 1, A: 1, turns: [{ action: candidates[0], candidates }] });
  const buf = Buffer.from(line);
  const t = new FastScanner(buildSchemaTables(), match).scan(buf, 0, buf.length);
  return t.turns.map((turn) => turn.sameRecomputed);
}

for (const match of [DEFAULT_MATCH, { clickTolerance: 5, keyCaseInsensitive: false }]) {
  test(`the fast reader's recomputed same flags equal the parser's (tolerance ${match.clickTolerance}, key case ${match.keyCaseInsensitive})`, () => {
    for (const list of LISTS) {
      const expected = list.map((c) => sameAction(list[0]!, c, match));
      assert.deepEqual(scanFlags(list, match), [expected], list.join(' | '));
    }
  });
}
