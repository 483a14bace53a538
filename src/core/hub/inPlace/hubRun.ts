/**
 * A Hub repo's logs opened in place: a `Run` whose bytes come from the Hub. The first open
 * indexes the credit log in one streamed pass, checks that its bytes hash to what the Hub
 * names, and saves the index under that hash; an unchanged file opens from it with no GET of
 * the file; a file grown at a newer commit (its first and last indexed 64 KB unchanged) parses
 * only its new tail, and is hashed again whole (streamed again, unless this process read the
 * earlier commit and can continue its hash); anything else is indexed again. Bytes that do not
 * check out refuse the open (or the refresh, which then goes back to the content verified
 * before), and nothing of them is saved. Offline, a log opened before opens from its saved
 * index, and its records from the ranges already fetched.
 */
import { errorMessage } from '../../errorMessage';
import { Run } from '../../run/run';
import type { RunLocation } from '../../run/runLocator';
import { DEFAULT_INDEX_OPTIONS } from '../../log/creditIndex';
import type { IndexOptions } from '../../log/creditIndex';
import type { IndexStore } from '../../log/indexStore';
import { HubError } from '../errors';
import type { HubConnection } from '../model';
import { DEFAULT_STALL_MS, retrying } from '../retry';
import type { RetryPolicy } from '../retry';
import { EDGE_BYTES, HubLogSource } from './hubLogSource';
import type { HubLogTarget } from './hubLogSource';
import { CREDIT_PATH, EVAL_PATH, METRICS_PATH, resolveHubLogs } from './hubLogs';
import type { HubLogs } from './hubLogs';
import { hubRefText } from './hubRef';
import type { HubRef } from './hubRef';
import type { RangeCache } from './rangeCache';
import { FIRST_BYTES, firstBytes, loadHubIndex, loadHubMetrics, loadPointer, saveHubIndex, savePointer, sha256 } from './savedHubIndex';
import type { HubIdentity, HubMetricsIdentity, HubPointer } from './savedHubIndex';
import { BLOCK_BYTES, ContentError, PrefixChanged } from './contentCheck';

export interface InPlaceOptions {
  conn: HubConnection;
  /** saved indexes (the same store as local logs') */
  store: IndexStore;
  /** ranges already fetched */
  cache: RangeCache;
  options?: IndexOptions;
  /** how a dropped, stalled or failed transfer of a log is tried again (the downloader's defaults) */
  retry?: RetryPolicy;
}

/** How the credit index started: indexed from byte 0, from the saved index of the same content, of the file before it grew, or offline. */
export type InPlaceUse = 'none' | 'unchanged' | 'grown' | 'offline';

/** Why a repo opened before opens from its saved index: a network error, or the Hub failing (5xx); undefined for anything else. */
function fallbackReason(e: unknown): string | undefined {
  if (!(e instanceof HubError)) return undefined;
  if (e.kind === 'offline') return e.message;
  if (e.kind === 'server' && e.status !== undefined && e.status >= 500) return `the Hub answered HTTP ${e.status}`;
  return undefined;
}

/**
 * Where the logs are now. A Hub that answers 5xx or 429 is asked again with the retry
 * policy before anyone falls back to a saved index; a Hub that cannot be reached, or
 * that sends nothing for the policy's stall timeout, is not (the saved index opens at once).
 */
const resolveLive = (ref: HubRef, o: InPlaceOptions): Promise<HubLogs> =>
  retrying(
    o.retry ?? {},
    o.conn.signal,
    () => resolveHubLogs(ref, { ...o.conn, stallTimeoutMs: o.conn.stallTimeoutMs ?? o.retry?.stallTimeoutMs ?? DEFAULT_STALL_MS }),
    (e) => e.kind !== 'offline',
  );

export class HubRun {
  /** the commit read, and whether it was reached (undefined) or why not */
  commit = '';
  use: InPlaceUse = 'none';
  offline: string | undefined;
  private identity: HubIdentity | undefined;
  /** the hash of the first 64 KB of the content `key`, known unchanged from the commit before (a grown log) */
  private keptHead: { key: string; head: string; first?: string } | undefined;
  private metricsIdentity: HubMetricsIdentity | undefined;
  private readonly where: string;

  private constructor(
    readonly ref: HubRef,
    readonly run: Run,
    private readonly o: InPlaceOptions,
    readonly credit: HubLogSource | undefined,
    readonly metrics: HubLogSource | undefined,
  ) {
    this.where = `${o.conn.endpoint}/${ref.repo}@${ref.revision}`;
  }

  get options(): IndexOptions {
    return this.o.options ?? DEFAULT_INDEX_OPTIONS;
  }

  /** Opens the logs of `ref`: online when the Hub answers, else from what was saved (or a HubError when nothing was). */
  static async open(ref: HubRef, o: InPlaceOptions): Promise<HubRun> {
    const options = o.options ?? DEFAULT_INDEX_OPTIONS;
    const where = `${o.conn.endpoint}/${ref.repo}@${ref.revision}`;
    let logs: HubLogs | undefined;
    let offline: string | undefined;
    try {
      logs = await resolveLive(ref, o);
    } catch (e) {
      offline = fallbackReason(e);
      if (offline === undefined) throw e;
    }
    const pointer = await loadPointer(o.store, where, options);
    const credit = logs ? logs.credit : pointer.credit;
    const metrics = logs ? logs.metrics : pointer.metrics;
    if (!credit && !metrics) {
      if (offline !== undefined)
        throw new HubError('offline', `${offline}; ${hubRefText(ref)} was not opened here before, so nothing of it is saved`);
      throw new HubError('entry-not-found', `${hubRefText(ref)} has no ${CREDIT_PATH} or ${METRICS_PATH}`);
    }
    const source = (t: HubLogTarget | undefined, whole: boolean): HubLogSource | undefined => {
      if (!t) return undefined;
      const s = new HubLogSource({ ...t }, o.conn, o.cache, whole);
      s.retry = o.retry ?? {};
      s.offline = offline;
      return s;
    };
    const cs = source(credit, false);
    const ms = source(metrics, true);
    // the evaluations are read in place when the Hub answers (offline, a run has none)
    const es = source(logs?.evals, true);
    const name = hubRefText(ref);
    const location: RunLocation = {
      root: name,
      name: ref.repo,
      creditLog: cs ? `${name}/${CREDIT_PATH}` : undefined,
      metricsLog: ms ? `${name}/${METRICS_PATH}` : undefined,
      ...(es ? { evalLog: `${name}/${EVAL_PATH}` } : {}),
      remote: { ...(cs ? { credit: cs } : {}), ...(ms ? { metrics: ms } : {}), ...(es ? { evals: es } : {}), description: 'on the Hub' },
    };
    const hr = new HubRun(ref, new Run(location, options), o, cs, ms);
    hr.commit = logs?.commit ?? credit?.commit ?? metrics?.commit ?? '';
    hr.offline = offline;
    await hr.start(pointer);
    return hr;
  }

  private async start(pointer: HubPointer): Promise<void> {
    const idx = this.run.credit;
    if (this.offline !== undefined) {
      this.use = 'offline';
      const saved = this.credit ? await loadHubIndex(this.o.store, this.credit.target.key, this.options) : undefined;
      if (this.credit && (!saved || !idx?.restoreFrame(saved.frame, saved.identity.committed)))
        throw new HubError('offline', `${this.offline}; the saved index of ${hubRefText(this.ref)} is gone or damaged`);
      this.identity = saved?.identity;
      if (this.credit) this.credit.verified = saved?.verified;
      this.knowHead(this.credit, saved?.identity);
      await this.restoreMetrics();
      await this.updateMetrics();
      return;
    }
    if (this.credit && idx) this.use = await this.resume(this.credit, pointer.credit);
    await this.restoreMetrics();
    if (await this.updateChecked()) this.use = 'none';
    await this.save();
  }

  /** Reads what is new; a grown log whose bytes before the new tail changed is indexed again from byte 0 (true then). */
  private async updateChecked(): Promise<boolean> {
    try {
      await this.run.update();
      this.throwRefused();
      return false;
    } catch (e) {
      const src = this.credit;
      if (!(e instanceof PrefixChanged) || !src || src.refused !== e) throw e;
      src.refused = undefined;
      src.verified = undefined;
      src.generation++;
      await this.run.update();
      this.throwRefused();
      return true;
    }
  }

  /** A log whose bytes did not check out refuses the whole run (the reader may have taken the metrics log's failure as a warning). */
  private throwRefused(): void {
    const e = this.credit?.refused ?? this.metrics?.refused;
    if (e) throw e;
  }

  /** Starts the credit index from a saved one that fits `src.target`: the same content, or the content before it grew. */
  private async resume(src: HubLogSource, prev: HubIdentity | undefined): Promise<InPlaceUse> {
    const idx = this.run.credit!;
    const t = src.target;
    const same = await loadHubIndex(this.o.store, t.key, this.options);
    if (same && same.identity.size === t.size && idx.restoreFrame(same.frame, same.identity.committed)) {
      this.identity = same.identity;
      src.verified = same.verified;
      this.knowHead(src, same.identity);
      return 'unchanged';
    }
    if (!prev || prev.key === t.key || prev.committed > t.size) return 'none';
    const before = await loadHubIndex(this.o.store, prev.key, this.options);
    if (!before || !(await this.samePrefix(src, before.identity))) return 'none';
    if (!idx.restoreFrame(before.frame, before.identity.committed)) return 'none';
    // the pass checks the bytes the index already holds against the blocks verified then
    src.verified = before.verified;
    return 'grown';
  }

  /** Whether the file now starts with the bytes `id` indexed: its first and last indexed 64 KB hash the same (two range requests). */
  private async samePrefix(src: HubLogSource, id: HubIdentity): Promise<boolean> {
    if (id.committed > src.target.size) return false;
    const [head, tail] = await Promise.all([
      src.readUnchecked(0, Math.min(EDGE_BYTES, id.committed)),
      src.readUnchecked(Math.max(0, id.committed - EDGE_BYTES), Math.min(EDGE_BYTES, id.committed)),
    ]);
    return sha256(head) === id.head && sha256(tail) === id.tail;
  }

  /** Starts the metrics index from the saved one of the same content, when there is one (no byte of the log is then read). */
  private async restoreMetrics(): Promise<void> {
    const src = this.metrics;
    const idx = this.run.metrics;
    if (!src || !idx) return;
    const saved = await loadHubMetrics(this.o.store, src.target.key, this.options);
    if (!saved || saved.identity.size !== src.target.size || !idx.restoreFrame(saved.frame, saved.identity.committed)) return;
    this.metricsIdentity = saved.identity;
    src.verified = saved.verified;
    this.knowHead(src, saved.identity);
  }

  private knowHead(src: HubLogSource | undefined, id: { key: string; first?: string } | undefined): void {
    const bytes = firstBytes(id?.first);
    if (src && id && bytes) src.knownHead = { key: id.key, bytes };
  }

  /** The first bytes of a log to keep in its saved index. */
  private async first(src: HubLogSource, committed: number): Promise<string | undefined> {
    const n = Math.min(FIRST_BYTES, committed);
    return n > 0 ? (await src.readRange(0, n)).toString('base64') : undefined;
  }

  private async updateMetrics(): Promise<void> {
    try {
      await this.run.metrics?.update();
      this.run.metricsError = undefined;
    } catch (e) {
      this.run.metricsError = errorMessage(e);
    }
  }

  /**
   * Saves the credit index under the hash its bytes were verified to have, and the pointer
   * (best effort: a full disk costs the next open its speed). Bytes not verified are not saved.
   */
  private async save(): Promise<void> {
    const idx = this.run.credit;
    const src = this.credit;
    const snap = idx?.snapshot();
    const v = src?.checked;
    const pointer: HubPointer = this.metrics?.checked ? { metrics: { ...this.metrics.target } } : {};
    const id = this.identity;
    if (src && snap && v && !(id?.key === src.target.key && id.committed === snap.committed)) {
      const c = snap.committed;
      const kept = this.keptHead?.key === src.target.key ? this.keptHead : undefined;
      const [head, tail] = await Promise.all([
        kept ? undefined : src.readRange(0, Math.min(EDGE_BYTES, c)),
        src.readRange(Math.max(0, c - EDGE_BYTES), Math.min(EDGE_BYTES, c)),
      ]);
      const first = kept ? kept.first : c > 0 ? head!.subarray(0, FIRST_BYTES).toString('base64') : undefined;
      const headHash = kept ? kept.head : sha256(head!);
      this.identity = { ...src.target, committed: c, head: headHash, tail: sha256(tail), ...(first ? { first } : {}), verified: v.key };
      await saveHubIndex(this.o.store, this.options, snap, this.identity, v).catch(() => undefined);
    }
    await this.saveMetrics();
    if (this.identity) pointer.credit = this.identity;
    await savePointer(this.o.store, this.where, this.options, pointer).catch(() => undefined);
  }

  /** Saves the metrics index under its content hash, unless the saved one is already this (best effort). */
  private async saveMetrics(): Promise<void> {
    const src = this.metrics;
    const snap = this.run.metrics?.snapshot();
    const id = this.metricsIdentity;
    const v = src?.checked;
    if (!src || !snap || !v || (id?.key === src.target.key && id.committed === snap.committed)) return;
    try {
      const first = await this.first(src, snap.committed);
      this.metricsIdentity = { ...src.target, committed: snap.committed, ...(first ? { first } : {}), verified: v.key };
      await saveHubIndex(this.o.store, this.options, snap, this.metricsIdentity, v, 'metrics');
    } catch {
      // a full disk or a failed range read costs the next open its speed
    }
  }

  /**
   * Follows the repo's newer commits: nothing when the logs are the same content; the new
   * tail only when the credit log grew (its indexed bytes unchanged); else indexed again.
   */
  async refresh(): Promise<'none' | 'grown' | 'rebuilt'> {
    const logs = await resolveLive(this.ref, this.o);
    this.offline = undefined;
    for (const s of [this.credit, this.metrics]) if (s) s.offline = undefined;
    // opened offline, the reader has not seen the file yet: let it (its head, cached) before the file changes under it
    if (this.use === 'offline') await this.run.credit?.update();
    const before = { commit: this.commit, credit: this.credit?.target, metrics: this.metrics?.target };
    try {
      return await this.follow(logs);
    } catch (e) {
      if (e instanceof ContentError) await this.rollback(before);
      throw e;
    }
  }

  /** Goes back to the content verified before a refresh whose bytes did not check out (its saved index; else it is indexed again). */
  private async rollback(before: { commit: string; credit: HubLogTarget | undefined; metrics: HubLogTarget | undefined }): Promise<void> {
    this.commit = before.commit;
    const load = { credit: loadHubIndex, metrics: loadHubMetrics };
    for (const kind of ['credit', 'metrics'] as const) {
      const src = this[kind];
      const prev = before[kind];
      const idx = this.run[kind];
      if (!src || !prev) continue;
      src.refused = undefined;
      if (src.target.key === prev.key && src.checked) continue;
      src.target = { ...prev };
      const saved = await load[kind](this.o.store, prev.key, this.options);
      if (saved && idx?.restoreFrame(saved.frame, saved.identity.committed)) src.verified = saved.verified;
      else src.generation++;
    }
  }

  private async follow(logs: HubLogs): Promise<'none' | 'grown' | 'rebuilt'> {
    this.commit = logs.commit;
    let kind: 'none' | 'grown' | 'rebuilt' = 'none';
    const t = logs.credit;
    if (this.credit && t && t.key !== this.credit.target.key) {
      const id = this.identity;
      this.credit.target = { ...t };
      if (id && t.size > id.committed && (await this.samePrefix(this.credit, id))) {
        kind = 'grown';
        // its first 64 KB were just found unchanged: the identity saved after the update keeps their hash instead of fetching them again
        if (id.committed >= EDGE_BYTES) this.keptHead = { key: t.key, head: id.head, ...(id.first ? { first: id.first } : {}) };
      } else {
        this.credit.generation++;
        kind = 'rebuilt';
      }
    }
    if (this.metrics && logs.metrics && logs.metrics.key !== this.metrics.target.key) {
      this.metrics.target = { ...logs.metrics };
      this.metrics.generation++;
    }
    const evals = this.run.location.remote?.evals;
    if (evals instanceof HubLogSource && logs.evals && logs.evals.key !== evals.target.key) {
      evals.target = { ...logs.evals };
      evals.generation++;
    }
    if (await this.updateChecked()) kind = 'rebuilt';
    if (kind !== 'none') this.use = kind === 'grown' ? 'grown' : 'none';
    await this.save();
    return kind;
  }

  /** Opened from the saved index because the Hub failed or could not be reached: one line saying so; undefined otherwise. */
  get savedIndexLine(): string | undefined {
    if (this.offline === undefined) return undefined;
    return `${this.offline}; ${hubRefText(this.ref)} opened from the saved index of commit ${this.commit.slice(0, 12)}`;
  }

  /** Offline: one line saying which records cannot be opened (not cached); undefined online or when all are. */
  async offlineNote(): Promise<string | undefined> {
    const idx = this.run.credit;
    if (this.offline === undefined || !idx || !this.credit) return undefined;
    const ranges = await this.o.cache.ranges(this.credit.target.key);
    const cached: number[] = [];
    const missing: number[] = [];
    const c = idx.columns;
    for (let i = 0; i < idx.size; i++) {
      // a record is read as the whole blocks around it (contentCheck.ts)
      const a = Math.floor(c.offset[i]! / BLOCK_BYTES) * BLOCK_BYTES;
      const b = Math.min(this.credit.target.size, Math.ceil((c.offset[i]! + c.length[i]!) / BLOCK_BYTES) * BLOCK_BYTES);
      (ranges.some((r) => r.offset <= a && b <= r.offset + r.length) ? cached : missing).push(c.line[i]!);
    }
    if (missing.length === 0) return undefined;
    const list = (l: number[]): string => l.slice(0, 10).join(', ') + (l.length > 10 ? `, … (${l.length - 10} more)` : '');
    const which = missing.length <= cached.length || cached.length === 0 ? `lines ${list(missing)}` : `all but lines ${list(cached)}`;
    return `offline: ${missing.length} of ${idx.size} records of ${idx.path} are not cached and open when the Hub answers again (${which})`;
  }
}
