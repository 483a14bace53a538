/**
 * The events of section 10 from what a run holds now and what was told before (the cursor): pure,
 * so that the CLI, the MCP server and the extension give the same events for the same run.
 */
import { iterationAlerts, MEAN_C_WINDOW } from './alerts';
import type { AlertInput } from './alerts';
import type { CheckpointState } from './checkpoints';
import { addToRanges, inRanges } from './liveCursor';
import type { LiveCursor } from './liveCursor';
import type { LiveEvent } from './liveEvent';

/** One iteration of the credit log, with what its events and alerts read. */
export interface LiveIteration extends Omit<AlertInput, 'windowMeanC'> {
  trajectories: number;
  reward: number | null;
  /** its trajectories are all in: a later iteration began, or the metrics log has its row */
  complete: boolean;
  /** logged c over its credited turns: their sum and number */
  sumC: number;
  cCount: number;
}

export interface LiveEvaluation {
  iteration: number;
  tasks: number;
  /** episodes counted */
  samples: number;
  success: number;
}

/** What a run holds at one poll. */
export interface LiveSnapshot {
  /** ascending by iteration */
  iterations: readonly LiveIteration[];
  checkpoints: readonly CheckpointState[];
  evaluations: readonly LiveEvaluation[];
}

const HOUR_MS = 3600_000;
/** at least this long without a new iteration before a run is stale */
export const STALE_MIN_MS = 2 * HOUR_MS;
/** the gaps of this many new iterations set the usual pace */
const PACE_ITERATIONS = 10;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** How long a run may be quiet: max(2 h, 3 x the median gap between the last 10 new iterations). */
export function staleLimitMs(seen: readonly number[]): number {
  const gaps = seen.slice(1).map((t, i) => t - seen[i]!);
  return Math.max(STALE_MIN_MS, 3 * median(gaps));
}

/** Mean logged c over the credited turns of iteration `j` and the iterations before it in the window. */
function windowMeanC(its: readonly LiveIteration[], j: number): number | null {
  let sum = 0;
  let n = 0;
  for (let k = Math.max(0, j - MEAN_C_WINDOW + 1); k <= j; k++) {
    sum += its[k]!.sumC;
    n += its[k]!.cCount;
  }
  return n > 0 ? sum / n : null;
}

const ORDER: Record<LiveEvent['type'], number> = { iteration: 0, alert: 1, checkpoint: 2, evaluation: 3, stale: 4 };

/**
 * The events that are new at `now` and the cursor after them: by iteration, each iteration's
 * `iteration` event, its alerts, its checkpoints (resume, then hf) and its evaluation; `stale` last.
 */
export function nextEvents(s: LiveSnapshot, cursor: LiveCursor, now: number): { events: LiveEvent[]; cursor: LiveCursor } {
  const events: LiveEvent[] = [];
  const fresh: number[] = [];
  s.iterations.forEach((it, j) => {
    if (!it.complete || inRanges(cursor.iterations, it.iteration)) return;
    fresh.push(it.iteration);
    events.push({ type: 'iteration', iteration: it.iteration, trajectories: it.trajectories, reward: it.reward });
    events.push(...iterationAlerts({ ...it, windowMeanC: windowMeanC(s.iterations, j) }));
  });
  const told = new Set(cursor.checkpoints);
  const checkpoints = [...cursor.checkpoints];
  for (const k of ['resume', 'hf'] as const)
    for (const c of [...s.checkpoints].filter((x) => x.kind === k).sort((a, b) => a.iteration - b.iteration)) {
      const key = `${c.kind}:${c.iteration}`;
      if (c.complete !== true || told.has(key)) continue;
      told.add(key);
      checkpoints.push(key);
      events.push({ type: 'checkpoint', iteration: c.iteration, kind: c.kind });
    }
  const counted = new Map(cursor.evaluations);
  for (const e of s.evaluations) {
    if (e.samples <= (counted.get(e.iteration) ?? 0)) continue;
    counted.set(e.iteration, e.samples);
    events.push({ type: 'evaluation', iteration: e.iteration, tasks: e.tasks, success: e.success });
  }
  // stable: within an iteration, the order of the kinds; the alerts keep their own order
  events.sort((a, b) => ('iteration' in a && 'iteration' in b ? a.iteration - b.iteration : 0) || ORDER[a.type] - ORDER[b.type]);
  const next: LiveCursor = {
    iterations: addToRanges(cursor.iterations, fresh),
    checkpoints,
    evaluations: [...counted].sort((a, b) => a[0] - b[0]),
    seen: fresh.length > 0 ? [...cursor.seen, ...fresh.map(() => now)].slice(-PACE_ITERATIONS) : cursor.seen,
    lastNewAt: fresh.length > 0 ? now : (cursor.lastNewAt ?? now),
    staleFor: cursor.staleFor,
  };
  const limitMs = staleLimitMs(next.seen);
  const since = next.lastNewAt!;
  if (fresh.length === 0 && now - since > limitMs && cursor.staleFor !== since) {
    events.push({ type: 'stale', since, quietMs: now - since, limitMs });
    next.staleFor = since;
  }
  return { events, cursor: next };
}
