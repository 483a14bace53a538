/**
 * Section 7's tags on eval episodes (section 8: "eval episodes are trajectories like any
 * other"), for the trajectory browser: each episode read back once and tagged from its
 * actions and reward alone, its bits kept by episode until the log is read afresh.
 * `collapsed` and `creditDisagrees` need labels, which an eval episode never has: they never hold.
 */
import type { EvalEpisodeView, EvalLog } from './evalLog';
import type { MatchOptions } from '../credit/actions';
import type { BehaviourOptions } from '../behaviour/tags';
import { tagTrajectory } from '../behaviour/tagTrajectory';
import { actionWindows } from '../behaviour/windows';
import { StringActions, MARK_CYCLE, MARK_REPEAT } from '../behaviour/actionSeq';

/** The executed actions as the tagger reads them (a turn without an action text: null). */
export const episodeActions = (e: EvalEpisodeView): (string | null)[] => e.turns.map((t) => (t.action === '' ? null : t.action));

/** The `Tag` bits of one episode read back. */
export function episodeBits(e: EvalEpisodeView, m: MatchOptions, o: BehaviourOptions): number {
  return tagTrajectory({ actions: episodeActions(e), reward: e.reward }, m, o).bits;
}

/** Per turn of an episode: is it a turn of a repeat window, of a cycle window (section 7's turn marks). */
export function episodeTurnMarks(e: EvalEpisodeView, m: MatchOptions): { repeat: boolean; cycle: boolean }[] {
  const marks = new Uint8Array(e.turns.length);
  actionWindows(new StringActions(episodeActions(e), m), marks);
  return Array.from(marks, (k) => ({ repeat: (k & MARK_REPEAT) !== 0, cycle: (k & MARK_CYCLE) !== 0 }));
}

/** The tag bits of a log's episodes, computed when first asked and kept (a reset of the log forgets them). */
export class EpisodeTags {
  private bits = new Map<number, number>();
  private readonly sub: { dispose(): void };

  constructor(
    private readonly log: EvalLog,
    private readonly match: MatchOptions,
    private readonly behaviour: BehaviourOptions,
  ) {
    this.sub = log.onDidChange((e) => {
      if (e.kind === 'reset') this.bits = new Map();
    });
  }

  /** The bits of episode `i` if known. */
  get(i: number): number | undefined {
    return this.bits.get(i);
  }

  /** Makes sure every episode of `indices` is tagged (reads the ones not yet). */
  async ensure(indices: readonly number[], signal?: AbortSignal): Promise<void> {
    for (const i of indices) {
      if (this.bits.has(i)) continue;
      signal?.throwIfAborted();
      this.bits.set(i, episodeBits(await this.log.read(i), this.match, this.behaviour));
    }
  }

  dispose(): void {
    this.sub.dispose();
  }
}
