import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, statSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLog } from '../../src/core/eval/evalLog';
import type { ByteSource } from '../../src/core/log/jsonlFile';

/** 30 episodes at 3 checkpoints, one line each; a skipped line in the middle. */
function evalFile(): string {
  const lines: string[] = [];
  for (const iteration of [9, 19, 29])
    for (let t = 0; t < 10; t++) {
      lines.push(
        JSON.stringify({ iteration, task_id: `t${t}`, reward: t % 2, turns: [{ action: `click(point_2d=[${t}, ${iteration}])` }] }),
      );
      if (iteration === 19 && t === 4) lines.push('not json');
    }
  const p = join(mkdtempSync(join(tmpdir(), 'rlrb-evalmany-')), 'eval_log.jsonl');
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

/** The file's bytes through a source that counts its range reads. */
function countingSource(path: string, reads: number[]): ByteSource {
  return {
    stat: async () => {
      const s = statSync(path);
      return { size: s.size, dev: s.dev, ino: s.ino };
    },
    open: () => open(path, 'r'),
    readRange: async (offset, length) => {
      reads.push(length);
      return (await readFile(path)).subarray(offset, offset + length);
    },
  };
}

test('readMany gives each episode as read(i) does, in one range read for nearby episodes (was one read each)', async () => {
  const path = evalFile();
  const reads: number[] = [];
  const log = new EvalLog(path, {}, { source: countingSource(path, reads) });
  await log.update();
  assert.equal(log.episodes.length, 30);
  const picked = log.episodes.flatMap((e, i) => (e.iteration !== 9 ? [i] : []));
  const many = [];
  for await (const v of log.readMany(picked)) many.push(v);
  assert.equal(reads.length, 1, 'the 20 episodes of iterations 19 and 29 (and the skipped line between them) are one read');
  const one = [];
  for (const i of picked) one.push(await log.read(i));
  assert.deepEqual(many, one);
  assert.deepEqual(many.map((v) => `${v.iteration}/${v.task}/${v.turns[0]?.action}`).slice(0, 2), [
    '19/t0/click(point_2d=[0, 19])',
    '19/t1/click(point_2d=[1, 19])',
  ]);
  // a bound on the bytes a read holds: each read under it, together every episode
  reads.length = 0;
  let n = 0;
  for await (const v of log.readMany(picked, 300)) n += v.turns.length;
  assert.equal(n, 20);
  assert.ok(reads.length > 1 && reads.every((l) => l <= 300), `reads: ${reads.join(', ')}`);
});
