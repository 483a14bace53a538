import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replaceSection } from '../../bench/common';

const FILE =
  '# Benchmark results\n\nIntro.\n\n## log engine\n\nMeasured then.\n\n| a | 1 |\n\n## compare: 2026-12-01 (2 cores)\n\n| b | 2 |\n';

test("a benchmark's run replaces its own section in place, the others kept", () => {
  const out = replaceSection(FILE, 'log engine', '## log engine\n\nMeasured now.\n\n| a | 9 |\n');
  assert.equal(
    out,
    '# Benchmark results\n\nIntro.\n\n## log engine\n\nMeasured now.\n\n| a | 9 |\n\n## compare: 2026-12-01 (2 cores)\n\n| b | 2 |\n',
  );
});

test('an old dated heading of the same benchmark is replaced; a new benchmark is added at the end', () => {
  const a = replaceSection(FILE, 'compare', '## compare\n\n| b | 3 |\n');
  assert.ok(a.endsWith('## compare\n\n| b | 3 |\n') && !a.includes('| b | 2 |'), a);
  const b = replaceSection(FILE, 'downloader', '## downloader\n\n| c | 4 |\n');
  assert.ok(b.startsWith(FILE.trimEnd()) && b.endsWith('\n\n## downloader\n\n| c | 4 |\n'), b);
});
