/**
 * One way to own disposables (after vscode-hexeditor's helper): a class registers what it
 * creates or subscribes to with `_register`, and its `dispose` undoes all of it, newest
 * first. No `vscode` import, so it is unit tested and fits VS Code's and core's events.
 */

export interface IDisposable {
  dispose(): unknown;
}

/** Disposes each, newest first, and empties the list; one that throws does not stop the others. */
export function disposeAll(disposables: IDisposable[]): void {
  const errors: unknown[] = [];
  while (disposables.length > 0) {
    try {
      disposables.pop()?.dispose();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed to dispose`);
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

export abstract class Disposable implements IDisposable {
  private disposed = false;
  private readonly owned: IDisposable[] = [];

  /** Keeps `d` until this is disposed; after that, disposes it at once. */
  protected _register<T extends IDisposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.owned);
  }
}
