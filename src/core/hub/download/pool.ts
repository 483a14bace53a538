/** A few workers over a list; once `failure` holds an error (theirs or another's), no new item starts. */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  failure: FirstFailure,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!failure.failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failure.set(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, items.length)) }, worker));
}

/** The first of several failures; the later ones are consequences or noise. */
export class FirstFailure {
  private error: unknown;
  private has = false;

  get failed(): boolean {
    return this.has;
  }

  get value(): unknown {
    return this.error;
  }

  set(e: unknown): void {
    if (this.has) return;
    this.has = true;
    this.error = e;
  }
}
