/**
 * A count the files of one download share and none may take past its limit: the background
 * flushes under way (libuv's pool threads are the other writes' too), the bytes held in memory
 * ahead of the hashed prefixes.
 */
export class Quota {
  private used = 0;
  constructor(private readonly max: number) {}

  /** Whether `n` more fit; when they do they are counted. */
  take(n = 1): boolean {
    if (this.used + n > this.max) return false;
    this.used += n;
    return true;
  }

  release(n = 1): void {
    this.used -= n;
  }
}
