import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, tempDir } from './helpers';
import { CreditIndex } from '../src/core/log/creditIndex';

/** Where a trajectory is and what it earned (the keys of a record before its turns). */
export interface RecordHead {
  iteration: number;
  group: number;
  rollout: number;
  reward: number;
  A: number;
  instruction?: string;
}

/** A labeled trajectory record: its head, `labeled: true`, then its turns. */
export function labeledRecord(head: RecordHead, turns: readonly Record<string, unknown>[]): Record<string, unknown> {
  return { ...head, labeled: true, turns };
}

/** The index of a credit log holding `records`, in a fresh `run/logs/` folder. */
export async function indexRecords(records: readonly Record<string, unknown>[]): Promise<CreditIndex> {
  const dir = join(tempDir(), 'run', 'logs');
  mkdirSync(dir, { recursive: true });
  const p = join(dir, 'ws_credit_log.jsonl');
  writeFileSync(p, jsonl(records));
  const idx = new CreditIndex(p);
  await idx.update();
  return idx;
}

/**
 * A small credit log whose report was worked out by hand (see test/unit/report.test.ts).
 * beta = 0.4, tau = 20.
 */
const F5 = [false, false, false, false, false];

export const HAND_LOG: readonly Record<string, unknown>[] = [
  // iteration 0, group 0: rewards 1, 0, 0 (mixed)
  labeledRecord({ iteration: 0, group: 0, rollout: 0, reward: 1, A: 1, instruction: 'first task' }, [
    // d = 10, -10, 0 (same), 5 -> c = 0.0625; not argmax
    {
      action: 'click(point_2d=[1, 1])',
      scores: [10, 0, 20, 10, 5],
      same: [true, false, false, true, false],
      done: F5,
      c: 0.0625,
      A_t: 1.025,
    },
    // d = 30 x3, done dropped -> 1.5 -> c = 1; argmax
    {
      action: 'write(message="x")',
      scores: [30, 0, 0, 0, 0],
      same: [true, false, false, false, false],
      done: [false, false, false, false, true],
      c: 1,
      A_t: 1.4,
    },
    // terminal done: scored, credit masked
    {
      action: 'done(response="ok")',
      scores: [1, 2, 3, 4, 5],
      same: [true, false, false, false, false],
      done: [true, false, false, false, false],
      c: null,
      A_t: 1,
      masked: true,
    },
  ]),
  labeledRecord({ iteration: 0, group: 0, rollout: 1, reward: 0, A: -1 }, [
    // d = -10 x4 -> c = -0.5; not argmax
    { action: 'go_back()', scores: [0, 10, 10, 10, 10], same: [true, false, false, false, false], done: F5, c: -0.5, A_t: -1.2 },
    // fallback: scoring failed
    {
      action: 'wait()',
      scores: [null, null, null, null, null],
      same: [true, false, false, false, false],
      done: F5,
      c: 0,
      A_t: -1,
      fallback: true,
    },
  ]),
  { iteration: 0, group: 0, rollout: 2, reward: 0, A: -1, labeled: false, turns: [{ action: 'wait()', A_t: -1 }] },
  // iteration 1, group 0: rewards 1, 0 (mixed)
  labeledRecord({ iteration: 1, group: 0, rollout: 0, reward: 1, A: 0.5 }, [
    // d = -40 x4 -> -2 -> c = -1; A_t = 0.1 (no flip); not argmax
    { action: 'click(point_2d=[5, 5])', scores: [0, 40, 40, 40, 40], same: F5.map((_, k) => k === 0), done: F5, c: -1, A_t: 0.1 },
    // recomputed c = 0 but logged 0.1: a c mismatch; A_t consistent with the logged c; argmax (ties)
    { action: 'click(point_2d=[6, 6])', scores: [5, 5, 5, 5, 5], same: F5.map((_, k) => k === 0), done: F5, c: 0.1, A_t: 0.54 },
  ]),
  labeledRecord({ iteration: 1, group: 0, rollout: 1, reward: 0, A: -0.2 }, [
    // d = 20 x4 -> c = 1; A_t = 0.2: a sign flip; argmax
    { action: 'click(point_2d=[7, 7])', scores: [20, 0, 0, 0, 0], same: F5.map((_, k) => k === 0), done: F5, c: 1, A_t: 0.2 },
    // K = 2, same -> c = 0; logged A_t -0.3 differs from A: an A_t mismatch; argmax
    { action: 'wait()', scores: [0, 0], same: [true, true], c: 0, A_t: -0.3 },
  ]),
];

/**
 * Two small credit logs whose comparison (docs/format.md section 6) was worked out by
 * hand in test/unit/compare.test.ts. Raw lines, to control key order, aliases and
 * Python's NaN. A has one labeled turn; B is a plain GRPO run (no labeled turn).
 */
export const COMPARE_A_LINES: readonly string[] = [
  '{"iteration":0,"group":0,"rollout":0,"task_id":"t1","instruction":"buy shoes","reward":1,"A":1,"labeled":true,"turns":[{"action":"click(point_2d=[1, 1])","scores":[10,0,20,10,5],"same":[true,false,false,true,false],"done":[false,false,false,false,false],"c":0.0625,"A_t":1.025}]}',
  '{"iteration":0,"group":0,"rollout":1,"task_id":"t1","reward":0,"A":-1,"turns":[{"action":"wait()","A_t":-1}]}',
  '{"iteration":0,"group":1,"rollout":0,"task_id":"t2","reward":1,"A":0,"turns":[]}',
  // no task_id: paired by its instruction
  '{"iteration":0,"group":2,"rollout":0,"instruction":"walk the dog","reward":1,"A":0,"turns":[]}',
  '{"iteration":1,"group":0,"rollout":0,"task_id":"t1","reward":1,"A":0,"turns":[]}',
  '{"iteration":1,"group":1,"rollout":0,"task_id":"t2","reward":-1,"A":0,"turns":[]}',
  // t3: seen by A only
  '{"iteration":1,"group":2,"rollout":0,"task_id":"t3","reward":1,"A":0,"turns":[]}',
  // neither task_id nor instruction: counted, not paired
  '{"iteration":1,"group":3,"rollout":0,"reward":0,"A":0,"turns":[]}',
  '{"iteration":2,"group":0,"rollout":0,"task_id":"t2","reward":0,"A":0,"turns":[]}',
  // reward not finite: not counted
  '{"iteration":2,"group":1,"rollout":0,"task_id":"t1","reward":NaN,"A":0,"turns":[]}',
  // iteration 3: not in B, outside the window
  '{"iteration":3,"group":0,"rollout":0,"task_id":"t1","reward":1,"A":0,"turns":[]}',
  // not a whole iteration: not counted
  '{"iteration":1.5,"group":9,"rollout":0,"task_id":"t1","reward":1,"A":0,"turns":[]}',
  '{"iteration":5,"group":0,"rollout":0,"task_id":"t5","reward":1,"A":0,"turns":[]}',
  'not json',
];

export const COMPARE_B_LINES: readonly string[] = [
  '{"iteration":0,"group":0,"rollout":0,"task_id":"t1","reward":0,"A":0,"turns":[{"action":"wait()"}]}',
  '{"iteration":0,"group":1,"rollout":0,"task_id":"t2","reward":1,"A":0,"turns":[{"action":"go_back()"}]}',
  '{"iteration":0,"group":2,"rollout":0,"goal":"walk the dog","reward":0,"A":0,"turns":[]}',
  '{"iteration":1,"group":0,"rollout":0,"task_id":"t1","reward":1,"A":0,"turns":[]}',
  // an escaped key is still task_id
  '{"iteration":1,"group":1,"rollout":0,"task\\u005fid":"t2","reward":0,"A":0,"turns":[]}',
  // t4: seen by B only; its task_id comes after the turns
  '{"iteration":1,"group":2,"rollout":0,"reward":1,"A":0,"turns":[{"action":"click(point_2d=[5, 5])"}],"task_id":"t4"}',
  '{"iteration":2,"group":0,"rollout":0,"task_id":"t2","reward":1,"A":0,"turns":[]}',
  // aliases: step for iteration, task for task_id
  '{"step":2,"group":1,"rollout":0,"task":"t1","reward":0,"A":0,"turns":[]}',
  // iteration 4: not in A
  '{"iteration":4,"group":0,"rollout":0,"task_id":"t1","reward":1,"A":0,"turns":[]}',
  '{"iteration":5,"group":0,"rollout":0,"task_id":"t5","reward":1,"A":0,"turns":[]}',
];
