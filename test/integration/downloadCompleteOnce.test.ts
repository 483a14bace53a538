/**
 * A file is completed (hashed, verified, put in place) once, however its spans end: here a
 * server that ignores Range for two ranges, so that each of those connections is cancelled
 * at its range's end and waits for the close, and the earlier range's bytes held back until
 * the later range's connection closed; its own connection closes slowly, so that its span
 * ends after the file was verified.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { noise, tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import { planDownload, runDownload } from '../../src/core/hub/download';

const REPO = 'acme/once';
const RANGE = 64 * 1024;
let emu: HubEmulator;
let repoDir: string;

before(async () => {
  repoDir = tempDir('rlrb-once-repo-');
  const d = join(repoDir, 'hf', 'iter_0000001');
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'model.safetensors'), noise(3 * RANGE, 11));
  emu = await startHubEmulator({ repos: { [REPO]: repoDir } });
});
after(async () => {
  await emu.close();
});

/** A body that waits for `gate` before its first byte, and whose cancel waits for `onCancel`. */
function gated(res: Response, gate: Promise<void>, onCancel: () => Promise<void>): Response {
  const reader = res.body!.getReader();
  let opened = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctl): Promise<void> {
      if (!opened) {
        opened = true;
        await gate;
      }
      const r = await reader.read();
      if (r.done) ctl.close();
      else ctl.enqueue(r.value);
    },
    async cancel(reason): Promise<void> {
      await onCancel();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

test('a span that ends after its file was verified does not complete it again', async () => {
  const second = `bytes=${RANGE}-${2 * RANGE - 1}`;
  const third = `bytes=${2 * RANGE}-${3 * RANGE - 1}`;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let thirdClosedAt = 0;
  let secondOpenedAt = 0;
  const baseFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const range = headers.get('range');
    if (range !== second && range !== third) return fetch(input, init);
    // the server ignores Range: the whole file, from which the client takes its range
    headers.delete('range');
    const res = await fetch(input, { ...init, headers });
    // the Hub's redirect to the CDN passes as it is; the CDN's whole-file answer is the one held
    if (res.status !== 200) return res;
    if (range === third)
      return gated(res, Promise.resolve(), () => {
        thirdClosedAt = performance.now();
        // the second range's bytes come in while the third's connection is closing (slowly)
        release();
        return delay(150);
      });
    // and the second's connection takes long to close: its span ends well after the file was verified
    return gated(
      res,
      gate.then(() => void (secondOpenedAt = performance.now())),
      () => delay(600),
    );
  };
  const l = await listRun(REPO, 'main', { endpoint: emu.url });
  const dest = tempDir();
  const res = await runDownload(planDownload(l, 'hf', 1, dest), {
    endpoint: emu.url,
    stateDir: tempDir(),
    rangeBytes: RANGE,
    concurrency: 3,
    backoffMs: 10,
    retries: 0,
    baseFetch: baseFetch,
  });
  assert.equal(res.files, 1);
  assert.ok(thirdClosedAt > 0 && secondOpenedAt > thirdClosedAt, 'the second range came in after the third closed');
  assert.ok(
    readFileSync(join(dest, 'iter_0000001', 'model.safetensors')).equals(
      readFileSync(join(repoDir, 'hf', 'iter_0000001', 'model.safetensors')),
    ),
  );
});
