/**
 * `rlrb watch <run>`: follows a run as it trains (docs/format.md section 10), one line per event.
 * A poll is one small request (the repo's head commit; the local logs' sizes); the logs' new tails
 * are read only when it changed. `--once` prints what is new since the last watch of the run (the
 * cursor is kept with the saved indexes) and exits 1 on an alert or `stale`, for cron.
 */
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { errorMessage } from '../../core/errorMessage';
import { isHubRef } from '../../core/hub/inPlace/hubRef';
import type { IndexStore } from '../../core/log/indexStore';
import { eventLine } from '../../core/live/eventText';
import { Follower } from '../../core/live/follower';
import { loadCursor, saveCursor } from '../../core/live/liveCursor';
import { isWarning } from '../../core/live/liveEvent';
import type { LiveEvent } from '../../core/live/liveEvent';
import { hubLiveSource, localLiveSource } from '../../core/live/liveSource';
import type { LiveSource } from '../../core/live/liveSource';
import { Run } from '../../core/run/run';
import { UsageError, numberFlag, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { openHubRun } from '../open/openHubRun';
import { openSettings } from '../open/openRun';
import { safeJsonLine, safeLine, writeErr } from '../output/safeText';
import { commandWords, runHook } from '../live/eventHook';

export const DEFAULT_INTERVAL_S = 60;
/** below this a warning: every poll is a request to the Hub */
export const MIN_QUIET_INTERVAL_S = 15;

/** `--interval S`: at least 1 (under 15 with a warning), default 60. */
export function intervalSeconds(a: ParsedArgs): number {
  const s = numberFlag(a, 'interval', { min: 1 }) ?? DEFAULT_INTERVAL_S;
  if (s < MIN_QUIET_INTERVAL_S)
    writeErr(`rlrb: warning: --interval ${s} polls more often than every ${MIN_QUIET_INTERVAL_S} s; fine for a test, heavy on a Hub\n`);
  return s;
}

async function openSource(ref: string, a: ParsedArgs): Promise<{ source: LiveSource; store: IndexStore | undefined }> {
  const s = openSettings(a);
  if (isHubRef(ref)) {
    const { hr, conn, store } = await openHubRun(ref, s);
    return { source: hubLiveSource(hr, conn), store };
  }
  const run = await Run.open(resolve(ref), s.options, s.engine);
  if (!run) throw new UsageError(`${ref}: no run here (expected logs/ws_credit_log.jsonl, logs/ws_metrics.jsonl, or a .jsonl file)`);
  return { source: localLiveSource(run, s.engine), store: s.engine.store };
}

async function run(a: ParsedArgs): Promise<number> {
  const ref = a.positional[1];
  if (!ref || a.positional.length > 2) throw new UsageError(`usage: rlrb ${WATCH.usage}`);
  const json = a.flags.has('json');
  const once = a.flags.has('once');
  const interval = intervalSeconds(a);
  const cmd = stringFlag(a, 'on-event');
  const words = cmd === undefined ? undefined : commandWords(cmd);
  const { source, store } = await openSource(ref, a);
  const follower = new Follower(source, await loadCursor(store, source.key));
  const print = async (e: LiveEvent): Promise<void> => {
    process.stdout.write((json ? safeJsonLine(e) : safeLine(eventLine(e))) + '\n');
    if (!words) return;
    try {
      const code = await runHook(words, e);
      if (code !== 0) writeErr(`rlrb: warning: --on-event ${safeLine(words[0]!)} exited ${code}\n`);
    } catch (err) {
      writeErr(`rlrb: warning: --on-event ${safeLine(words[0]!)} could not be run: ${safeLine(errorMessage(err))}\n`);
    }
  };
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let warned = false;
  try {
    for (;;) {
      const before = follower.cursor;
      try {
        const { events } = await follower.poll();
        for (const e of events) await print(e);
        warned ||= events.some(isWarning);
      } catch (e) {
        if (once) throw e;
        writeErr(`rlrb: warning: ${safeLine(errorMessage(e))}; trying again in ${interval} s\n`);
      }
      if (!isDeepStrictEqual(before, follower.cursor)) await saveCursor(store, source.key, follower.cursor).catch(() => undefined);
      if (once || stop.signal.aborted) break;
      await sleep(interval * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
      if (stop.signal.aborted) break;
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return once && warned ? 1 : 0;
}

export const WATCH: Command = {
  usage:
    `watch <run folder or hub:owner/name[@revision]> [--json] [--interval S] [--once] [--on-event CMD] [--endpoint URL] ` + INDEX_USAGE,
  about:
    'Follows a run as it trains: one line per event (iteration, checkpoint, evaluation, alert, stale). ' +
    '--once prints what is new since the last watch and exits 1 on an alert or stale.',
  flags: { json: 'boolean', interval: 'string', once: 'boolean', 'on-event': 'string', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
