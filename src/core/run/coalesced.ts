/**
 * One async job run at most once at a time. A `run()` asked while the job runs is not
 * folded into that run (it may have passed the state the caller changed): it starts one
 * more run after it, shared by every caller who asked meanwhile. `settled()` waits for
 * what is running or already ran, starting a first run only if none ever did.
 */
export class Coalesced {
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private last: Promise<void> | undefined;

  constructor(private readonly job: () => Promise<void>) {}

  run(): Promise<void> {
    if (!this.current) return this.start();
    this.next ??= this.current.then(
      () => this.afterCurrent(),
      () => this.afterCurrent(),
    );
    return this.next;
  }

  settled(): Promise<void> {
    return this.current ?? this.last ?? this.run();
  }

  private afterCurrent(): Promise<void> {
    this.next = undefined;
    return this.start();
  }

  private start(): Promise<void> {
    const p = this.job().finally(() => {
      if (this.current === p) this.current = undefined;
    });
    this.current = p;
    this.last = p.catch(() => undefined);
    return p;
  }
}
