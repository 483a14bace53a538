/**
 * Follows a run: each poll makes the source's one small request, and only when it changed
 * reads what is new and asks the checkpoints' states; the events are those `nextEvents` finds
 * against the cursor, which moves on with them.
 */
import { nextEvents } from './liveEvents';
import type { LiveSnapshot } from './liveEvents';
import type { LiveCursor } from './liveCursor';
import type { LiveEvent } from './liveEvent';
import type { LiveSource } from './liveSource';
import { liveSnapshot } from './runSnapshot';

export interface PollResult {
  events: LiveEvent[];
  /** whether the head moved (the logs and the listing were read) */
  changed: boolean;
}

export class Follower {
  private head: string | undefined;
  private snapshot: LiveSnapshot | undefined;

  constructor(
    readonly source: LiveSource,
    public cursor: LiveCursor,
  ) {}

  /** The run as of the last poll that read it (undefined before the first). */
  get last(): LiveSnapshot | undefined {
    return this.snapshot;
  }

  async poll(now = Date.now()): Promise<PollResult> {
    const head = await this.source.head();
    const changed = head !== this.head || !this.snapshot;
    if (changed) {
      await this.source.refresh();
      this.snapshot = liveSnapshot(this.source.run, await this.source.checkpoints());
      this.head = head;
    }
    const { events, cursor } = nextEvents(this.snapshot!, this.cursor, now);
    this.cursor = cursor;
    return { events, changed };
  }
}
