/** One line of text per event, the same in the terminal and in the editor's notifications. */
import type { AlertCheck, LiveEvent } from './liveEvent';

const fig = (v: number | null): string => (v === null ? 'n/a' : Number.isInteger(v) ? String(v) : v.toFixed(4));
const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
const hours = (ms: number): string => `${(ms / 3600_000).toFixed(1)} h`;

/** What each check says when it fails, in a reader's words. */
export const CHECK_TITLES: Record<AlertCheck, string> = {
  signFlip: 'sign flips (should be exactly 0)',
  fallback: 'credit fallback rate (should be under 0.05)',
  argmax: 'executed-is-argmax rate outside the chance band',
  meanC: 'mean c over the last 5 iterations (should be within ±0.03)',
  loggedDisagrees: 'a logged figure differs from its recomputed twin',
};

export function eventLine(e: LiveEvent): string {
  switch (e.type) {
    case 'iteration':
      return `iteration ${e.iteration}: ${e.trajectories} trajectories, mean reward ${fig(e.reward)}`;
    case 'checkpoint':
      return `checkpoint ${e.kind}/iter_${String(e.iteration).padStart(7, '0')} is complete`;
    case 'evaluation':
      return `evaluation of iteration ${e.iteration}: ${e.tasks} tasks, success ${pct(e.success)}`;
    case 'alert':
      if (e.check === 'loggedDisagrees')
        return (
          `ALERT iteration ${e.iteration}: ${e.field ?? 'a logged figure'} is ${fig(e.value)} in the metrics log, ` +
          `${fig(e.limit)} recomputed`
        );
      if (e.check === 'argmax')
        return `ALERT iteration ${e.iteration}: ${CHECK_TITLES.argmax}: ${fig(e.value)}, band 0.2 ± ${fig(e.limit)}`;
      return `ALERT iteration ${e.iteration}: ${CHECK_TITLES[e.check]}: ${fig(e.value)}`;
    case 'stale':
      return `STALE: no new iteration for ${hours(e.quietMs)} (allowed ${hours(e.limitMs)}), since ${new Date(e.since).toISOString()}`;
  }
}
