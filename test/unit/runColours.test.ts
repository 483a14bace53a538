import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_PALETTE, SLOT_A, SLOT_B, runColourVar, runDash, runSlots } from '../../src/shared/runColours';
import { inCheckOrder } from '../../src/extension/task/checkOrder';

test('run A ("this run") has the first colour and the baseline B the second, by role, whatever their names', () => {
  assert.equal(SLOT_A, 0);
  assert.equal(SLOT_B, 1);
  assert.equal(runColourVar(SLOT_A), 'var(--vscode-charts-blue, #3794ff)');
  assert.equal(runColourVar(SLOT_B), 'var(--vscode-charts-orange, #d18616)');
  // past the palette the colours wrap around and the dash tells the runs apart
  assert.equal(runColourVar(RUN_PALETTE.length), runColourVar(0));
  assert.deepEqual(runDash(1), []);
  assert.notDeepEqual(runDash(RUN_PALETTE.length), runDash(RUN_PALETTE.length + 1));
  // a view's runs in role order: "run" first although "baseline" sorts first; one run shown twice keeps one colour
  assert.deepEqual(runSlots(['/w/run', '/w/run/baseline']), [0, 1]);
  assert.deepEqual(runSlots(['/w/run/baseline', '/w/run/baseline']), [0, 0]);
});

test('the palette pick of the task view answers in the order the runs were checked, not the list order (by name)', () => {
  // the list is [baseline, run]; the user checks run, then baseline: run is A
  let order: string[] = [];
  order = inCheckOrder(order, ['run']);
  order = inCheckOrder(order, ['baseline', 'run']);
  assert.deepEqual(order, ['run', 'baseline']);
  // unchecking A makes the other one first; checking again puts it last
  order = inCheckOrder(order, ['baseline']);
  assert.deepEqual(order, ['baseline']);
  assert.deepEqual(inCheckOrder(order, ['baseline', 'run']), ['baseline', 'run']);
});

/** Every webview script, recursively. */
function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? scripts(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('one place decides run colours: no webview script names the first two run colours itself', () => {
  const own = scripts('webview').filter((f) => /--vscode-charts-(blue|orange)\b/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(own, [], 'these pick run colours of their own instead of src/shared/runColours.ts');
});
