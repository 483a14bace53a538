/**
 * The rules that keep the layout: no import cycle anywhere in src/ and webview/, the zones'
 * arrows point one way (core below cli and extension, seeing of shared only its data-only
 * shapes module; shared stands alone; webview never reaches the host), no folder grows into
 * a grab-bag, and lines stay short enough to read side by side. Read from the source text,
 * so a new file is checked the day it is added.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const ZONES = ['src', 'webview'];
/** A folder with more files than this is a grab-bag (the issue says about a dozen). */
const MAX_FILES_A_FOLDER = 14;
/** Lines longer than this are read scrolling sideways (Prettier's width; it cannot break a long string). */
const MAX_LINE = 140;
/** The long lines src/ and webview/ may hold together: a long message is sometimes clearer unbroken, rarely. */
const MAX_LONG_LINES = 10;
/** The modules of src/shared that src/core may import: data and types only. */
const CORE_MAY_IMPORT = ['src/shared/shapes.ts'];

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Relative imports of a file, resolved to files (type-only imports included: they tie the code too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const base = resolve(dirname(file), m[1] ?? '');
    const hit = [`${base}.ts`, join(base, 'index.ts')].find((c) => existsSync(c));
    if (hit) out.push(hit);
  }
  return out;
}

function packageImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'".][^'"]*)['"]/g)].map((m) => m[1] ?? '');
}

const files = ZONES.flatMap((z) => sources(join(ROOT, z)));
const rel = (p: string): string => relative(ROOT, p);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Every cycle found by a depth-first walk, each as its list of files. */
function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open') found.push(stack.slice(stack.indexOf(g)).map(rel));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
}

test('no import cycle in src/ or webview/', () => {
  assert.ok(files.length > 20, `read ${files.length} files`);
  assert.deepEqual(cycles(), []);
});

test("the zones' arrows point one way", () => {
  const zone = (p: string): string => {
    const r = rel(p);
    return r.startsWith('webview/') ? 'webview' : (r.split('/')[1] ?? '');
  };
  const allowed: Record<string, string[]> = {
    core: ['core'],
    shared: ['shared'],
    cli: ['cli', 'core', 'shared'],
    extension: ['extension', 'core', 'shared'],
    webview: ['webview', 'shared'],
  };
  const wrong: string[] = [];
  for (const [f, deps] of graph) {
    const from = zone(f);
    for (const d of deps) {
      const ok = (allowed[from] ?? []).includes(zone(d)) || (from === 'core' && CORE_MAY_IMPORT.includes(rel(d)));
      if (!ok) wrong.push(`${rel(f)} -> ${rel(d)}`);
    }
    const vscode = packageImportsOf(f).includes('vscode');
    if (vscode && from !== 'extension') wrong.push(`${rel(f)} -> vscode`);
  }
  assert.deepEqual(wrong, []);
});

test('src/core never sees the webview wire', () => {
  const wire = files.filter((f) => rel(f).startsWith('src/shared/protocol'));
  const wrong = files.filter((f) => rel(f).startsWith('src/core/') && (graph.get(f) ?? []).some((d) => wire.includes(d))).map(rel);
  assert.deepEqual(wrong, []);
});

test('the shared modules core may import are data only: no import, no function, no class', () => {
  for (const m of CORE_MAY_IMPORT) {
    // the code without its comments (which may well say "no function")
    const text = readFileSync(join(ROOT, m), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    assert.deepEqual(importsOf(join(ROOT, m)), [], `${m} imports nothing`);
    assert.deepEqual(packageImportsOf(join(ROOT, m)), [], `${m} imports no package`);
    assert.doesNotMatch(text, /\bfunction\b|=>|\bclass\b/, `${m} holds data and types only`);
  }
  const users = files.filter((f) => rel(f).startsWith('src/core/') && (graph.get(f) ?? []).some((d) => CORE_MAY_IMPORT.includes(rel(d))));
  assert.ok(users.length > 0, 'core uses the shared shapes');
});

test('no folder is a grab-bag', () => {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(rel(dirname(f)), (counts.get(rel(dirname(f))) ?? 0) + 1);
  const big = [...counts].filter(([, n]) => n > MAX_FILES_A_FOLDER).map(([d, n]) => `${d}: ${n} files`);
  assert.deepEqual(big, []);
});

test('few lines are longer than 140 characters', () => {
  const long = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.length > MAX_LINE ? [`${rel(f)}:${i + 1}`] : [])),
  );
  assert.ok(
    long.length <= MAX_LONG_LINES,
    `${long.length} lines over ${MAX_LINE} characters (at most ${MAX_LONG_LINES}):\n${long.join('\n')}`,
  );
});
