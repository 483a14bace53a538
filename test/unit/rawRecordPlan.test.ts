import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FORMAT_MAX_BYTES, LONG_LINE_BYTES, rawRecordPlan } from '../../src/extension/share/rawRecordPlan';

const at = '/r/logs/ws_credit_log.jsonl:12';

test('Open Raw Record: a short line opens the log, a long one or a turn the formatted view', () => {
  assert.deepEqual(rawRecordPlan({ bytes: 900, turn: null, localFile: true, at }), { kind: 'log' });
  assert.deepEqual(rawRecordPlan({ bytes: LONG_LINE_BYTES + 1, turn: null, localFile: true, at }), { kind: 'formatted' });
  assert.deepEqual(rawRecordPlan({ bytes: 900, turn: 3, localFile: true, at }), { kind: 'formatted' });
  assert.deepEqual(rawRecordPlan({ bytes: 900, turn: null, localFile: false, at }), { kind: 'formatted' }, 'a Hub log has no file to open');
  assert.deepEqual(rawRecordPlan({ bytes: FORMAT_MAX_BYTES, turn: 0, localFile: false, at }), { kind: 'formatted' });
});

test('Open Raw Record: a record over 2 MB (6 MB took 759 MB to format, 60 MB ended the host) opens as the log at its line with one note, or is refused in place', () => {
  assert.equal(FORMAT_MAX_BYTES, 2_000_000);
  assert.deepEqual(rawRecordPlan({ bytes: 60_000_000, turn: null, localFile: true, at }), {
    kind: 'log',
    note: `${at}: the record is 60.0 MB, over the 2.00 MB Open Raw Record formats: opened as the log at its line`,
  });
  const turn = rawRecordPlan({ bytes: FORMAT_MAX_BYTES + 1, turn: 4, localFile: true, at });
  assert.equal(turn.kind, 'log');
  assert.match((turn as { note: string }).note, /: opened as the log at its line \(not at turn 4\)$/);
  const remote = rawRecordPlan({ bytes: 6_000_000, turn: null, localFile: false, at: 'hub:o/r/logs/ws_credit_log.jsonl:3' });
  assert.deepEqual(remote, {
    kind: 'refused',
    message:
      'hub:o/r/logs/ws_credit_log.jsonl:3: the record is 6.00 MB, over the 2.00 MB Open Raw Record formats, and the log is not a local file to open at its line',
  });
  for (const p of [turn, remote]) assert.ok(!JSON.stringify(p).includes('\\n'), 'one line');
});
