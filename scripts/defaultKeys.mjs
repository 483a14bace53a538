// Lists the key chords VS Code binds by default (every platform, every context), read from the
// workbench bundle code-server ships: `node scripts/defaultKeys.mjs > test/fixtures/vscode-default-keys.txt`.
// The bundle has the keybindings as numbers (KeyMod | KeyCode, a chord as KeyChord(a, b)).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_SERVER_ROOT } from './codeServer.mjs';

const bundle = join(CODE_SERVER_ROOT, 'node_modules/code-server/lib/vscode/out/vs/code/browser/workbench/workbench.js');
const text = readFileSync(process.argv[2] ?? bundle, 'utf8');

/** VS Code's KeyCode numbers, as in its keyCodes.ts. */
const names = { 1: 'backspace', 2: 'tab', 3: 'enter', 9: 'escape', 10: 'space', 11: 'pageup', 12: 'pagedown', 13: 'end', 14: 'home' };
Object.assign(names, { 15: 'left', 16: 'up', 17: 'right', 18: 'down', 19: 'insert', 20: 'delete' });
for (let i = 0; i < 10; i++) names[21 + i] = String(i);
for (let i = 0; i < 26; i++) names[31 + i] = String.fromCharCode(97 + i);
for (let i = 0; i < 24; i++) names[59 + i] = `f${i + 1}`;
Object.assign(names, { 85: ';', 86: '=', 87: ',', 88: '-', 89: '.', 90: '/', 91: '`', 92: '[', 93: '\\', 94: ']', 95: "'" });

/** One key as the package.json spells it: ctrl (CtrlCmd, cmd on a Mac), shift, alt, meta (WinCtrl). */
function key(n) {
  const mods = [];
  if (n & 2048) mods.push('ctrl');
  if (n & 1024) mods.push('shift');
  if (n & 512) mods.push('alt');
  if (n & 256) mods.push('meta');
  return [...mods, names[n & 255] ?? `code${n & 255}`].join('+');
}

const keys = new Set();
const add = (a, b) => {
  if (Number(a) === 0) return;
  keys.add(b === undefined ? key(Number(a)) : `${key(Number(a))} ${key(Number(b))}`);
};
/** The expression after `at` up to its end (a comma or brace outside parentheses): a number, a chord, or a condition choosing one. */
function expression(at) {
  let depth = 0;
  for (let i = at; i < text.length && i < at + 200; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    if (depth < 0 || (depth === 0 && (c === ',' || c === '}'))) return text.slice(at, i);
  }
  return '';
}
/** Every key in a keybinding expression: chords (a call of two numbers) and plain numbers. */
function addAll(expr) {
  const rest = expr.replace(/[A-Za-z_$][\w$]*\((\d+),(\d+)\)/g, (_, a, b) => (add(a, b), ''));
  for (const n of rest.matchAll(/(?<![\w$.])(\d+)(?![\w$.])/g)) add(n[1]);
}
for (const m of text.matchAll(/(?:primary|win|linux):(?:\{primary:)?/g)) addAll(expression(m.index + m[0].length));
for (const m of text.matchAll(/secondary:\[/g)) addAll(expression(m.index + m[0].length));
process.stdout.write(
  `${[...keys]
    .filter((k) => !k.includes('code'))
    .sort()
    .join('\n')}\n`,
);
