/**
 * Reloads a webview whose page never said `ready`. VS Code sometimes leaves a new webview
 * blank: its inner frame never gets the page (the platform's service worker fails to
 * register or to answer, microsoft/vscode#125993; on a loaded machine the second of two
 * webviews opened side by side can stay blank for minutes). Giving the webview its html
 * again loads it in a fresh frame. Only a
 * visible panel is timed: a webview does not load while it is hidden.
 */

export interface LoadWatchdogOptions {
  /** how long a visible page may take to say `ready` before it is loaded again */
  afterMs: number;
  /** reloads before giving up */
  tries: number;
  visible: () => boolean;
  /** gives the webview its html again (`attempt` from 1) */
  reload: (attempt: number) => void;
  /** every reload failed too */
  giveUp: () => void;
}

export class LoadWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private attempts = 0;
  private done = false;

  constructor(private readonly o: LoadWatchdogOptions) {
    this.arm();
  }

  /** The panel was shown or hidden: a visible page not yet ready is timed from now. */
  visibilityChanged(): void {
    this.arm();
  }

  /** The page said `ready`: nothing more to watch. */
  ready(): void {
    this.stop();
  }

  dispose(): void {
    this.stop();
  }

  private stop(): void {
    this.done = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.done || this.timer || !this.o.visible()) return;
    this.timer = setTimeout(() => this.fire(), this.o.afterMs);
  }

  private fire(): void {
    this.timer = undefined;
    if (this.done || !this.o.visible()) return;
    if (this.attempts >= this.o.tries) {
      this.stop();
      this.o.giveUp();
      return;
    }
    this.o.reload(++this.attempts);
    this.arm();
  }
}
