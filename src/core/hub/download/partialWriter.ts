/**
 * The partials' background flushes (fdatasync every so many bytes, so that the disk writes
 * while the network reads) share a few slots: the others' writes need libuv's pool threads too.
 */
/** Background flushes allowed at once over all files: the others' writes need libuv's pool threads too. */
export class SyncSlots {
  private busy = 0;
  constructor(private readonly max: number) {}

  take(): boolean {
    if (this.busy >= this.max) return false;
    this.busy++;
    return true;
  }

  release(): void {
    this.busy--;
  }
}
