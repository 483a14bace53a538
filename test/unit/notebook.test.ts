import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildNotebook, markdownCode, markdownText, notebookText } from '../../src/core/notebook/notebook';
import type { NotebookOptions } from '../../src/core/notebook/notebook';
import { describeFilter } from '../../src/core/notebook/describeFilter';

const base: NotebookOptions = {
  runName: 'exp1',
  runLocation: '/home/u/runs/exp1',
  selection: 'iterations 3 to 10',
  dataPath: '/tmp/sel.jsonl',
  format: 'jsonl',
  rows: 12,
};

/** A string literal that Python reads exactly as JSON does: only the escapes both share (no `\/`), no raw control character. */
const SHARED_LITERAL = /^"(?:[^"\\\u0000-\u001f]|\\["\\bfnrt]|\\u[0-9a-fA-F]{4})*"$/;

const sourceOf = (nb: ReturnType<typeof buildNotebook>, id: string): string => nb.cells.find((c) => c.id === id)!.source.join('');

test('the notebook is nbformat 4 shaped: metadata, three cells with ids, sources as lines, code cells unexecuted', () => {
  for (const format of ['jsonl', 'csv'] as const) {
    const text = notebookText({ ...base, format });
    const nb = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(nb, JSON.parse(JSON.stringify(buildNotebook({ ...base, format }))));
    assert.equal(nb['nbformat'], 4);
    assert.equal(nb['nbformat_minor'], 5);
    const meta = nb['metadata'] as { kernelspec: Record<string, string>; language_info: Record<string, string> };
    assert.equal(meta.kernelspec['name'], 'python3');
    assert.equal(meta.kernelspec['language'], 'python');
    assert.equal(meta.language_info['name'], 'python');
    const cells = nb['cells'] as Record<string, unknown>[];
    assert.deepEqual(
      cells.map((c) => c['cell_type']),
      ['markdown', 'code', 'code'],
    );
    const ids = cells.map((c) => c['id'] as string);
    assert.equal(new Set(ids).size, ids.length);
    for (const c of cells) {
      assert.match(c['id'] as string, /^[a-zA-Z0-9-_]{1,64}$/);
      assert.deepEqual(c['metadata'], {});
      const src = c['source'] as string[];
      assert.ok(Array.isArray(src) && src.length > 0);
      src.forEach((l, i) => {
        assert.equal(typeof l, 'string');
        assert.equal(l.endsWith('\n'), i < src.length - 1, JSON.stringify(l));
        assert.equal(l.slice(0, -1).includes('\n'), false);
      });
      if (c['cell_type'] === 'code') {
        assert.deepEqual(c['outputs'], []);
        assert.equal(c['execution_count'], null);
      } else {
        assert.equal('outputs' in c, false);
        assert.equal('execution_count' in c, false);
      }
    }
  }
});

test('the load cell reads the export with pandas; the plot cell draws mean reward per iteration', () => {
  const j = buildNotebook(base);
  assert.match(sourceOf(j, 'load'), /^import pandas as pd$/m);
  assert.match(sourceOf(j, 'load'), /^df = pd\.read_json\(path, lines=True\)$/m);
  const c = buildNotebook({ ...base, format: 'csv', dataPath: '/tmp/sel.csv' });
  assert.match(sourceOf(c, 'load'), /^df = pd\.read_csv\(path\)$/m);
  assert.match(sourceOf(c, 'load'), /^path = "\/tmp\/sel\.csv"$/m);
  const plot = sourceOf(j, 'reward-by-iteration');
  assert.match(plot, /import matplotlib\.pyplot as plt/);
  assert.match(plot, /\.groupby\(df\[ITERATION\]\)\.mean\(\)/);
  const named = buildNotebook({ ...base, iterationField: 'step', rewardField: 'judge_outcome' });
  assert.match(sourceOf(named, 'load'), /^ITERATION = "step"$/m);
  assert.match(sourceOf(named, 'load'), /^REWARD = "judge_outcome"$/m);
});

test('paths with quotes, backslashes, newlines and odd characters reach Python as one safe literal', () => {
  const plainLines = sourceOf(buildNotebook(base), 'load').split('\n').length;
  const paths = [
    'C:\\Users\\me\\new folder\\t.jsonl',
    '/tmp/a"b\'c/"""/x.jsonl',
    "/tmp/'''; import os; os.system('x') #.jsonl",
    '/tmp/line\nbreak\r\n.jsonl',
    '/tmp/tab\there\u0000nul\u001f.jsonl',
    '/tmp/sep\u2028\u2029/ü—ä.jsonl',
    '/tmp/lone\ud800surrogate.jsonl',
    '/tmp/end\\',
    '/tmp/slash/\\/x',
  ];
  for (const p of paths) {
    const src = sourceOf(buildNotebook({ ...base, dataPath: p, iterationField: p }), 'load');
    assert.equal(src.split('\n').length, plainLines, `the path adds no line: ${JSON.stringify(p)}`);
    const line = src.split('\n').find((l) => l.startsWith('path = '))!;
    const literal = line.slice('path = '.length);
    assert.match(literal, SHARED_LITERAL, literal);
    assert.equal(JSON.parse(literal), p);
    const it = src
      .split('\n')
      .find((l) => l.startsWith('ITERATION = '))!
      .slice('ITERATION = '.length);
    assert.equal(JSON.parse(it), p);
  }
});

test('markdown shows names and paths as text: no HTML, no markup, no math, one line each', () => {
  const nb = buildNotebook({
    ...base,
    runName: '<img src=x onerror=alert(1)> *bold* $x^2$',
    runLocation: '/runs/`tick``s`\n# heading',
    selection: 'text "[a](javascript:x)"',
  });
  const md = sourceOf(nb, 'selection');
  assert.doesNotMatch(md, /<img/);
  assert.match(md, /&lt;img src=x onerror=alert\\\(1\\\)&gt; \\\*bold\\\* \\\$x\^2\\\$/);
  assert.match(md, /^- Run: ```\/runs\/`tick``s` # heading```$/m);
  assert.match(md, /\\\[a\\\]\\\(javascript:x\\\)/);
  assert.equal(md.split('\n').filter((l) => l.startsWith('#')).length, 1, 'one heading');
  assert.equal(markdownCode('plain'), '`plain`');
  assert.equal(markdownCode('`x'), '`` `x ``');
  assert.equal(markdownText('a_b'), 'a\\_b');
});

test('the filter in words', () => {
  assert.equal(describeFilter({}), 'all trajectories');
  assert.equal(
    describeFilter({ iterationMin: 3, iterationMax: 10, group: 2, reward: 'failure', labeledOnly: true, flags: 1 | 4, text: 'cl"ick' }),
    'iterations 3 to 10, group 2, failed (reward <= 0), labeled, with a sign flip, with a fallback turn, text "cl\\"ick"',
  );
  assert.equal(describeFilter({ iterationMin: 4, iterationMax: 4 }), 'iteration 4');
  assert.equal(describeFilter({ iterationMax: 4, flags: 2 }), 'iterations up to 4, with an argmax turn');
});
