/** Sends a file or a range of it, from either origin, with the file faults a test asked for. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { EmulatorState } from './state';
import type { EmulatorFile, Faults } from './types';

interface Span {
  start: number;
  end: number;
  status: 200 | 206;
}

interface BodyFaults {
  drop: number | undefined;
  corrupt: boolean;
  trickle: number | undefined;
  stall: number | undefined;
  cap: number | undefined;
}

const length = (s: Span): number => s.end - s.start + 1;

export function sendFile(
  st: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  f: EmulatorFile,
  headers: Record<string, string>,
): void {
  const faults = st.faults;
  const apply = !faults.pathContains || f.path.includes(faults.pathContains);
  if (apply && serverErrorFault(faults, res)) return;
  const range = req.headers.range;
  const span = range === undefined ? { start: 0, end: f.size - 1, status: 200 as const } : rangeOf(range, f.size);
  if (!span) {
    res.writeHead(416, { 'Content-Range': `bytes */${f.size}` });
    res.end();
    return;
  }
  if (apply && span.status === 206) rangeFaults(faults, span, f.size);
  if (apply && oddRangeAnswer(faults, res, f, span, headers)) return;
  if (apply && refusedOrSilent(faults, res, span, range !== undefined)) return;
  const bodyLength = f.size === 0 ? 0 : length(span);
  st.inFlight.now++;
  st.inFlight.peak = Math.max(st.inFlight.peak, st.inFlight.now);
  res.once('close', () => st.inFlight.now--);
  res.writeHead(span.status, {
    ...headers,
    'Accept-Ranges': 'bytes',
    'Content-Length': String(bodyLength),
    'Content-Type': 'application/octet-stream',
    ...(span.status === 206 ? { 'Content-Range': `bytes ${span.start}-${span.end}/${f.size}` } : {}),
  });
  if (req.method === 'HEAD' || bodyLength === 0) {
    res.end();
    return;
  }
  const body = apply ? bodyFaults(faults, bodyLength) : { drop: undefined, corrupt: false, trickle: undefined, stall: undefined };
  void pump(st, res, faults.substitute?.[f.path] ?? f.abs, span, { ...body, cap: faults.connectionBytesPerSecond });
}

/** `serverErrors`: a 500/502/503 instead of the file. */
function serverErrorFault(faults: Faults, res: ServerResponse): boolean {
  if ((faults.serverErrors ?? 0) <= 0) return false;
  faults.serverErrors!--;
  const status = faults.serverErrorStatus ?? [500, 502, 503][faults.serverErrors! % 3]!;
  res.writeHead(status, { 'Content-Type': 'text/plain' });
  res.end("Internal Error - We're working hard to fix this as soon as possible!");
  return true;
}

/** The bytes a `Range` header asks for, or undefined when it cannot be served (416). */
function rangeOf(range: string, size: number): Span | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end = size - 1;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
  } else {
    start = Number(m[1]);
    if (m[2] !== '') end = Math.min(end, Number(m[2]));
  }
  if (start >= size || start > end) return undefined;
  return { start, end, status: 206 };
}

/** `ignoreRange` and `wrongContentRange`: change what a ranged answer covers. */
function rangeFaults(faults: Faults, span: Span, size: number): void {
  if (length(span) > 1 && (faults.ignoreRange ?? 0) > 0) {
    faults.ignoreRange!--;
    [span.start, span.end, span.status] = [0, size - 1, 200];
  } else if (span.start > 0 && (faults.wrongContentRange ?? 0) > 0) {
    faults.wrongContentRange!--;
    span.start -= 1;
  }
}

/** `rangeExtraByte` and `gzipRange`: a ranged answer whose body is not the range. */
function oddRangeAnswer(faults: Faults, res: ServerResponse, f: EmulatorFile, span: Span, headers: Record<string, string>): boolean {
  if (span.status !== 206 || length(span) <= 1) return false;
  const contentRange = `bytes ${span.start}-${span.end}/${f.size}`;
  if ((faults.rangeExtraByte ?? 0) > 0) {
    faults.rangeExtraByte!--;
    const body = Buffer.concat([readFileSync(f.abs).subarray(span.start, span.end + 1), Buffer.from('x')]);
    res.writeHead(206, { ...headers, 'Content-Range': contentRange, 'Content-Length': String(body.length) });
    res.end(body);
    return true;
  }
  if ((faults.gzipRange ?? 0) > 0) {
    faults.gzipRange!--;
    const body = gzipSync(readFileSync(f.abs)).subarray(span.start, span.end + 1);
    res.writeHead(206, { ...headers, 'Content-Encoding': 'gzip', 'Content-Range': contentRange, 'Content-Length': String(body.length) });
    res.end(body);
    return true;
  }
  return false;
}

/** `rangeRateLimit` (a 429 for a ranged request) and `noHeaders` (no answer at all). */
function refusedOrSilent(faults: Faults, res: ServerResponse, span: Span, ranged: boolean): boolean {
  const rr = faults.rangeRateLimit;
  if (rr && rr.count > 0 && ranged && length(span) > 1) {
    rr.count--;
    res.writeHead(429, { 'Content-Type': 'text/plain', ...(rr.retryAfter !== undefined ? { 'Retry-After': String(rr.retryAfter) } : {}) });
    res.end('Too Many Requests');
    return true;
  }
  const nh = faults.noHeaders;
  if (nh && nh.count > 0 && nh.ranged === ranged && length(span) > 1) {
    nh.count--;
    return true;
  }
  return false;
}

/**
 * The faults that act on a body being sent. `drop` and `corrupt` hit the next body whatever its size, a
 * file's first request included (a one-byte probe, or the one GET of a client that makes one): a drop
 * then cuts the body short of its end (`minBodyBytes` skips short bodies). `stall` counts only bodies longer than where it stalls.
 */
function bodyFaults(faults: Faults, bodyLength: number): Omit<BodyFaults, 'cap'> {
  const long = bodyLength >= (faults.minBodyBytes ?? 1);
  const drop =
    long && faults.dropAfterBytes !== undefined && (faults.dropCount ?? 1) > 0
      ? Math.min(faults.dropAfterBytes, bodyLength - 1)
      : undefined;
  if (drop !== undefined) faults.dropCount = (faults.dropCount ?? 1) - 1;
  const corrupt = long && (faults.corrupt ?? 0) > 0;
  if (corrupt) faults.corrupt!--;
  const s = faults.stall;
  const stall = s && s.count > 0 && s.afterBytes < bodyLength ? s.afterBytes : undefined;
  if (stall !== undefined) s!.count--;
  return { drop, corrupt, trickle: faults.trickleBytesPerSecond, stall };
}

/** Writes bytes [start, end] of a file, with backpressure and the body faults. */
async function pump(st: EmulatorState, res: ServerResponse, abs: string, span: Span, o: BodyFaults): Promise<void> {
  const fh = await open(abs, 'r');
  const buf = Buffer.allocUnsafe(o.trickle ? 16 * 1024 : o.cap ? 64 * 1024 : 256 * 1024);
  let pos = span.start;
  let sent = 0;
  try {
    while (pos <= span.end && !res.destroyed) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, span.end - pos + 1), pos);
      if (bytesRead === 0) break;
      const c = Buffer.from(buf.subarray(0, bytesRead));
      if (o.corrupt && sent === 0) c[0] = c[0]! ^ 0xff;
      pos += bytesRead;
      if (o.drop !== undefined && sent + c.length > o.drop) {
        res.write(c.subarray(0, Math.max(0, o.drop - sent)));
        st.sentBytes.set(res, Math.max(sent, o.drop));
        await new Promise((r) => setTimeout(r, 10));
        res.socket?.destroy();
        return;
      }
      if (o.stall !== undefined && sent + c.length > o.stall) {
        // a stalled transfer: some bytes, then silence until the client gives up
        res.write(c.subarray(0, Math.max(0, o.stall - sent)));
        st.sentBytes.set(res, Math.max(sent, o.stall));
        await new Promise((r) => res.once('close', r));
        return;
      }
      sent += c.length;
      st.sentBytes.set(res, sent);
      if (o.cap && res.socket) await connectionTurn(st, res.socket, c.length, o.cap);
      // a client that goes away while the socket is full never drains it: the wait ends with it
      if (!res.write(c) && !res.destroyed) await drainedOrClosed(res);
      // no wait after the last byte: the response ends when the client has it all
      if (o.trickle && pos <= span.end) await new Promise((r) => setTimeout(r, (c.length / o.trickle!) * 1000));
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    await fh.close();
  }
}

/** Waits for the response's socket to drain, or to close. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((r) => {
    const done = (): void => {
      res.off('drain', done).off('close', done);
      r();
    };
    res.on('drain', done).on('close', done);
  });
}

/** Waits until a connection under a bytes/s cap may send `n` more bytes (shared by every response on it). */
async function connectionTurn(st: EmulatorState, socket: object, n: number, cap: number): Promise<void> {
  const now = performance.now();
  const start = Math.max(now, st.connectionFree.get(socket) ?? now);
  st.connectionFree.set(socket, start + (n / cap) * 1000);
  if (start > now) await new Promise((r) => setTimeout(r, start - now));
}
