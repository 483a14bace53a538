import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

test("the browser's flag, tag and mark icons are drawn at the codicons' own 16 px (smaller ones were hard to tell apart)", () => {
  const css = readFileSync(join(__dirname, '../../../media/trajectories.css'), 'utf8');
  const rules = [...css.matchAll(/([^{}]*\.codicon[^{}]*)\{([^}]*)\}/g)];
  assert.ok(rules.length >= 4);
  for (const [, selector, body] of rules) {
    const size = /font-size:\s*(\d+)px/.exec(body!);
    if (size) assert.ok(Number(size[1]) >= 16, `${selector!.trim()}: ${size[1]} px`);
  }
  assert.match(css, /\.tagflag:not\(\.labelled\)\s*\{[^}]*border: 1px solid currentColor/, 'a tag is boxed, a flag is not');
});
