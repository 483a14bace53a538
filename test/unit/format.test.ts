import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatDuration, formatFigure, formatPlain } from '../../src/shared/format';

test('formatFigure: a dash for no data, integers as they are, a sign and fixed digits, tiny values in scientific notation', () => {
  assert.equal(formatFigure(null), '—');
  assert.equal(formatFigure(undefined), '—');
  assert.equal(formatFigure(NaN), '—');
  assert.equal(formatFigure(3), '3');
  assert.equal(formatFigure(-2), '-2');
  assert.equal(formatFigure(0.5), '+0.5000');
  assert.equal(formatFigure(-0.12345, 3), '-0.123');
  assert.equal(formatFigure(0.00001234), '1.23e-5');
  assert.equal(formatFigure(1.5, 0), '+2');
});

test('formatPlain drops only the plus sign', () => {
  assert.equal(formatPlain(1.5, 0), '2');
  assert.equal(formatPlain(-0.25, 2), '-0.25');
  assert.equal(formatPlain(null), '—');
  assert.equal(formatPlain(1), '1');
});

test('formatBytes and formatDuration', () => {
  assert.equal(formatBytes(999), '999 B');
  assert.equal(formatBytes(1_500_000), '1.50 MB');
  assert.equal(formatDuration(75), '1m15s');
  assert.equal(formatDuration(3700), '1h01m');
});
