/**
 * The ranges of every file still to fetch, in file order, over one adaptive pool of
 * connections. While the pool is at one connection, a request takes the file's next
 * ranges with it (a span of up to `SPAN_RANGES`), so that a link one connection fills pays
 * one request, not one a range. A connection the pool adds meanwhile that finds no range
 * waiting takes the span's unstarted rest (the span ends at the end of the range it is
 * in), so a CDN that caps each connection still gets the ranges spread over all the
 * connections it is given from the first doubling on. Each span is retried on its own (dropped links, stalls, 5xx, 429 with the
 * wait the Hub asks for, expired signed URLs resolved again); a file whose last range is
 * in is hashed to its end and verified, and handed to `verified` (which puts it in place);
 * a wrong byte somewhere starts that file again once. After the first failure no new range
 * starts; those under way finish, and what they wrote is kept for the next run.
 */
import { HubError } from '../errors';
import { DEFAULT_RETRIES, StallError, cancelled, retryWaitMs, shouldRetry, sleep } from '../retry';
import { DownloadError } from './types';
import { expectedDigest } from './digest';
import type { FileJob } from './fileJob';
import type { RangeState } from './manifest';
import { rangeDone } from './manifest';
import { FileSource } from './source';
import type { AdaptiveLimit } from './adaptive';
import { SignedUrlExpired, fetchRange, hubError } from './fetchFile';
import type { FetchContext, Span, SpanHooks } from './fetchFile';
import { errorMessage } from '../../errorMessage';

/** Ranges one request may take while the pool is at one connection (16 MB ranges: 1 GB). */
export const SPAN_RANGES = 64;

interface Task {
  job: FileJob;
  src: FileSource;
  span: Span;
}

/** A task of one range. */
const rangeTask = (job: FileJob, src: FileSource, r: RangeState): Task => ({ job, src, span: { ranges: [r], cur: 0 } });

/** `t`, joined by the unstarted ranges of its file that follow it at the head of `queue` (taken from it), up to `most` ranges. */
function joinNext(t: Task, queue: Task[], most: number): Task {
  for (;;) {
    const last = t.span.ranges[t.span.ranges.length - 1];
    const next = queue[0];
    const r = next?.span.ranges[0];
    if (t.span.ranges.length >= most || !last || !next || !r || next.job !== t.job || next.span.ranges.length !== 1) return t;
    if (r.index !== last.index + 1 || r.have !== 0) return t;
    t.span.ranges.push(r);
    queue.shift();
  }
}

/** Wakes the workers waiting for work. */
class Bell {
  private waiting: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((r) => this.waiting.push(r));
  }
  ring(): void {
    for (const w of this.waiting.splice(0)) w();
  }
}

export interface Schedule {
  ctx: FetchContext;
  jobs: FileJob[];
  limit: AdaptiveLimit;
  failure: FirstFailure;
  /** a file verified: put it in place (runs in the background) */
  verified: (job: FileJob) => void;
  /** the manifest, saved as ranges finish */
  save: (force: boolean) => Promise<void>;
  /** workers: as many as the pool may ever allow (those over its limit wait for a slot) */
  maxWorkers: number;
}

export async function fetchAll(s: Schedule): Promise<void> {
  const { ctx, jobs, limit, failure } = s;
  const queue: Task[] = [];
  const bell = new Bell();
  let open = jobs.length;
  const sources = new Map<FileJob, FileSource>();
  const source = (job: FileJob): FileSource => {
    let src = sources.get(job);
    if (!src)
      sources.set(
        job,
        (src = new FileSource(
          { repo: ctx.repo, commit: ctx.commit, endpoint: ctx.o.endpoint, ...(ctx.o.token ? { token: ctx.o.token } : {}) },
          job.it,
        )),
      );
    return src;
  };
  const enqueue = (job: FileJob): void => {
    for (const r of job.pending()) queue.push(rangeTask(job, source(job), r));
    bell.ring();
  };
  const closeFile = (): void => {
    open--;
    bell.ring();
  };
  const finishing: Promise<void>[] = [];
  /**
   * Files completed (or being completed): a file is completed once. A span may end well after
   * the file was verified (it waits for its cancelled body's connection to close), and its
   * file is still complete then: a second completion would hash a finished digest again.
   * A file started again after a wrong byte leaves the set.
   */
  const completing = new Set<FileJob>();
  /** every range of the file is in: hash the rest, verify, hand it on or start it again */
  const complete = async (job: FileJob): Promise<void> => {
    completing.add(job);
    try {
      await job.close();
      if (await job.verify()) {
        ctx.meter.stop(job.it.target);
        s.verified(job);
        closeFile();
        return;
      }
      ctx.meter.discard(job.it.size);
      await job.restart();
      if (++job.mismatches <= 1) {
        ctx.meter.emit(`${job.it.target}: checksum mismatch, fetching it again from the start`);
        await s.save(true);
        completing.delete(job);
        enqueue(job);
        return;
      }
      await s.save(true);
      const want = expectedDigest(job.it);
      throw new DownloadError(
        `${job.it.path}: checksum mismatch twice (expected ${want.algo} ${want.hex}); nothing was put in place`,
        job.it.path,
      );
    } catch (e) {
      failure.set(e);
      ctx.meter.stop(job.it.target);
      closeFile();
    }
  };
  const rangeFinished = (job: FileJob): void => {
    // a save that fails leaves the last record, so a resume fetches those bytes again: worth a line, not a stop
    s.save(false).catch((e: unknown) => ctx.meter.emit(`cannot save the download's progress: ${errorMessage(e)}`));
    // a failed read-back stays in the job's hash chain: the file's final check meets it again and reports it
    job.advanceHash().catch(() => undefined);
  };
  /** a span's request ended with every range of it in (one cut short by `cut` ends at its range's end) */
  const spanEnded = (t: Task): void => {
    // two ranges may end before either's worker looks, or one long after: the file is completed once
    if (t.job.complete && !completing.has(t.job)) finishing.push(complete(t.job));
  };
  for (const job of jobs) {
    if (job.complete) finishing.push(complete(job));
    else {
      job.advanceHash().catch(() => undefined); // as in rangeFinished: the final check reports a failure
      enqueue(job);
    }
  }
  const running = new Map<FileJob, number>();
  const hooks = (t: Task): SpanHooks => ({ rangeDone: () => rangeFinished(t.job) });
  /** the running spans, whose unstarted rest a connection with nothing to do may take */
  const spans = new Set<Task>();
  const cuttable = (): boolean => [...spans].some((t) => t.span.cur + 1 < t.span.ranges.length);
  /** the unstarted rest of a running span, back in the queue first in line as ranges */
  const cut = (): void => {
    for (const t of spans) {
      const rest = t.span.ranges.splice(t.span.cur + 1);
      if (rest.length === 0) continue;
      queue.unshift(...rest.map((r) => rangeTask(t.job, t.src, r)));
      bell.ring();
      return;
    }
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      if (failure.failed || ctx.o.signal?.aborted) return;
      if (queue.length === 0 && !cuttable()) {
        if (open === 0) return;
        await bell.wait();
        continue;
      }
      // a connection first, then the ranges: what a span may take is known only then
      if (!(await limit.acquire(ctx.o.signal))) return;
      if (queue.length === 0) cut();
      const head = queue.shift();
      if (!head) {
        limit.release();
        continue;
      }
      const t = limit.limit === 1 ? joinNext(head, queue, SPAN_RANGES) : head;
      ctx.meter.start(t.job.it.target);
      running.set(t.job, (running.get(t.job) ?? 0) + 1);
      spans.add(t);
      try {
        await runRange(ctx, limit, t, hooks(t));
        spanEnded(t);
      } catch (e) {
        failure.set(e);
        bell.ring();
      } finally {
        spans.delete(t);
        const n = (running.get(t.job) ?? 1) - 1;
        running.set(t.job, n);
        if (n === 0 && !t.job.complete) ctx.meter.stop(t.job.it.target);
      }
    }
  };
  const onAbort = (): void => bell.ring();
  ctx.o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(Array.from({ length: workers(s) }, worker));
    await Promise.all(finishing);
  } finally {
    ctx.o.signal?.removeEventListener('abort', onAbort);
    for (const job of jobs) await job.close().catch(() => undefined);
    await s.save(true).catch(() => undefined);
  }
}

const workers = (s: Schedule): number => Math.max(1, s.maxWorkers);

/**
 * A span until it is in (or given back): the first attempt has the worker's connection slot,
 * each retry takes one again, the waits between them do not.
 */
async function runRange(c: FetchContext, limit: AdaptiveLimit, t: Task, hooks: SpanHooks): Promise<void> {
  const { o, meter } = c;
  const it = t.job.it;
  const retries = o.retries ?? DEFAULT_RETRIES;
  let failures = 0;
  let renewals = 0;
  /** the last attempt got no answer in time: this one waits the whole stall timeout for it */
  let patient = false;
  for (let held = true; ; held = false) {
    if (o.signal?.aborted) {
      if (held) limit.release();
      throw cancelled();
    }
    if (!held && !(await limit.acquire(o.signal))) throw cancelled();
    let err: unknown;
    const done = t.span.ranges.filter(rangeDone).length;
    try {
      await fetchRange(c, t.job, t.src, t.span, hooks, patient);
      return;
    } catch (e) {
      err = e;
    } finally {
      limit.release();
    }
    if (err instanceof DownloadError) throw err;
    const he = err instanceof HubError ? err : hubError(c, it, err);
    if (he.kind === 'cancelled' || o.signal?.aborted) throw cancelled();
    patient = he instanceof StallError && he.beforeAnswer;
    if (he instanceof SignedUrlExpired && ++renewals <= retries + 1) {
      t.src.expired(he.url);
      meter.emit(`${it.target}: ${he.message}`);
      continue;
    }
    // a span that got a range further since the last failure starts its count again
    if (t.span.ranges.filter(rangeDone).length > done) failures = 0;
    if (shouldRetry(he, ++failures, o)) {
      // a stall is one connection's, not the server pushing back: a new connection at once, the pool kept
      const stalled = he instanceof StallError;
      if (he.kind === 'rate-limited' || (he.status !== undefined && he.status >= 500)) limit.throttled();
      const wait = stalled ? 0 : retryWaitMs(he, failures, o);
      meter.emit(`${it.target}: ${he.message}; retrying in ${(wait / 1000).toFixed(1)} s (${failures}/${retries})`);
      await sleep(wait, o.signal);
      continue;
    }
    throw new DownloadError(`${it.path}: ${he.message}${failures > retries ? ` (after ${retries} retries)` : ''}`, it.path, err);
  }
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
