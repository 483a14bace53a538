/** Refreshes the followed repos every few minutes, when the setting asks for it. */
import type { HubService } from './hubService';
import { Disposable, toDisposable } from '../dispose';

export class HubAutoRefresh extends Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly hub: HubService,
    private readonly repos: () => string[],
  ) {
    super();
    this._register(toDisposable(() => this.stop()));
  }

  /** Restarts the timer; 0 minutes stops it. */
  every(minutes: number): void {
    this.stop();
    if (minutes <= 0) return;
    this.timer = setInterval(() => {
      for (const r of this.repos()) this.hub.startRefresh(r);
    }, minutes * 60_000);
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
