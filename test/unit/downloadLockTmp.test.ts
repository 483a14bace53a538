/** The download lock's private files: one left by a process that died mid-write (a full disk) is removed when the lock is next taken. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { takeLock } from '../../src/core/hub/download/lock';
import { tempDir } from '../helpers';

test('a lock .tmp left by a dead process is cleaned when the lock is taken; one of a live process is kept', async () => {
  const dir = tempDir();
  // a PID that has ended
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(join(dir, 'lock.0.json'), JSON.stringify({ pid: dead, host: 'x', started: new Date().toISOString(), released: 'y' }));
  writeFileSync(join(dir, `lock.0.json.${dead}.tmp`), '');
  writeFileSync(join(dir, `lock.1.json.${dead}.0a1b2c3d.tmp`), '{"pid"');
  const live = `lock.0.json.${process.ppid}.tmp`;
  writeFileSync(join(dir, live), '');
  const release = await takeLock(dir);
  await release();
  assert.deepEqual(readdirSync(dir).sort(), [live, 'lock.1.json'].sort());
});
