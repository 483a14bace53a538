import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

interface Keybinding {
  command: string;
  key: string;
  mac?: string;
}

const contributed = (): Keybinding[] =>
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { keybindings: Keybinding[] } }).contributes.keybindings;

/** VS Code 1.100's default chords on every platform and in every context (scripts/defaultKeys.mjs). */
const DEFAULTS = new Set(readFileSync(join(ROOT, 'test/fixtures/vscode-default-keys.txt'), 'utf8').split('\n').filter(Boolean));

/**
 * Defaults that share a key with ours only in contexts a webview panel never is in: the text
 * editor (move/copy lines, add cursor: editorTextFocus), a focused list, the quick input,
 * the terminal, the Source Control graph.
 */
const ONLY_ELSEWHERE = new Set(['alt+down', 'alt+up', 'shift+alt+down', 'shift+alt+up']);

/** A key spelled as the defaults list spells it: cmd as ctrl (CtrlCmd), modifiers in the order ctrl, shift, alt, meta. */
function normal(chord: string): string {
  const order = ['ctrl', 'shift', 'alt', 'meta'];
  return chord
    .split(' ')
    .map((k) => {
      const parts = k.toLowerCase().split('+');
      const base = parts.pop() ?? '';
      const mods = [...new Set(parts.map((m) => (m === 'cmd' ? 'ctrl' : m)))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      return [...mods, base].join('+');
    })
    .join(' ');
}

test('the defaults list is the one read from code-server 1.100 (it has the chords a user knows)', () => {
  for (const k of ['ctrl+p', 'ctrl+shift+p', 'ctrl+k ctrl+s', 'alt+up', 'shift+alt+c', 'ctrl+alt+g', 'ctrl+k ctrl+r'])
    assert.ok(DEFAULTS.has(k), k);
});

test('every contributed keybinding is free in VS Code: no default chord, and never Alt+letter (a menu mnemonic: Alt+G opens the Go menu)', () => {
  const keys = contributed();
  assert.ok(keys.length >= 7, 'the browser contributes its shortcuts');
  for (const b of keys) {
    for (const chord of [b.key, b.mac].filter((k): k is string => k !== undefined)) {
      const k = normal(chord);
      assert.ok(!DEFAULTS.has(k) || ONLY_ELSEWHERE.has(k), `${b.command}: ${chord} is a default VS Code keybinding`);
      const first = k.split(' ')[0] ?? '';
      assert.doesNotMatch(first, /^(shift\+)?alt\+[a-z0-9]$/, `${b.command}: ${chord} is a menu mnemonic`);
      const second = k.split(' ')[1];
      if (second !== undefined)
        assert.match(second, /^(ctrl|meta)\+/, `${b.command}: the second key of ${chord} would be typed into the webview's filter box`);
    }
  }
});

test('docs/links-and-export.md lists every contributed shortcut', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'links-and-export.md'), 'utf8');
  const spelled = (k: string): string =>
    k
      .split(' ')
      .map((c) =>
        c
          .split('+')
          .map((p) => ({ ctrl: 'Ctrl', shift: 'Shift', alt: 'Alt', cmd: 'Cmd', down: '↓', up: '↑' })[p] ?? p.toUpperCase())
          .join('+'),
      )
      .join(' ');
  for (const b of contributed())
    assert.ok(doc.includes(`\`${spelled(b.key)}\``), `docs/links-and-export.md: ${b.command} ${spelled(b.key)}`);
});

test('the walkthrough names only shortcuts that exist: each `Key+Key` it spells is a contributed keybinding', () => {
  const dir = join(ROOT, 'media/walkthrough');
  const own = new Set(contributed().flatMap((b) => [b.key, b.mac].filter((k): k is string => k !== undefined).map(normal)));
  const arrows: Record<string, string> = { '↓': 'down', '↑': 'up' };
  const named: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(/`((?:Ctrl|Cmd|Shift|Alt)\+[^`]+)`/g)) {
      const chord = m[1]!
        .split(' ')
        .map((c) => c.replace(/[↓↑]/g, (a) => arrows[a]!))
        .join(' ');
      named.push(chord);
      assert.ok(own.has(normal(chord)), `${f}: ${m[1]} is no keybinding of the extension`);
    }
  }
  assert.ok(named.length >= 5, named.join(', '));
});
