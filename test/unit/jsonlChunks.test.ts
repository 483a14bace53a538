/** The line reader across its chunks: every line handed over whole, with its offset and number, whatever chunk it straddles. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { JsonlFile } from '../../src/core/log/jsonlFile';
import type { LineSink } from '../../src/core/log/jsonlFile';

interface Seen {
  offset: number;
  line: number;
  text: string;
}

/** A sink that keeps every line's text, offset and number. */
function collector(): LineSink & { seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    reset: () => void (seen.length = 0),
    mark: () => seen.length,
    rollback: (m) => void (seen.length = m),
    line: (buf, start, end, offset, line) => {
      seen.push({ offset, line, text: buf.toString('latin1', start, end) });
      return undefined;
    },
  };
}

/** What a reader must hand over: each non-blank line, its offset and number (CR of a CRLF dropped). */
function expected(text: string): Seen[] {
  const out: Seen[] = [];
  let at = 0;
  text.split('\n').forEach((l, i, all) => {
    if (i < all.length - 1 || l.length > 0) {
      const body = l.endsWith('\r') ? l.slice(0, -1) : l;
      if (body.trim() !== '') out.push({ offset: at, line: i + 1, text: body });
    }
    at += l.length + 1;
  });
  return out;
}

test('lines straddling the 4 MB chunks: short, longer than the room kept for a carried line, longer than a chunk, CRLF, no newline at the end', async () => {
  const line = (n: number, pad: number): string => `{"n":${n},"pad":"${'x'.repeat(pad)}"}`;
  const MB = 1024 * 1024;
  const parts: string[] = [];
  let size = 0;
  let n = 0;
  const add = (l: string): void => void (size += parts[parts.push(l) - 1]!.length + 1);
  /** short lines (a CR before some newlines) up to `until`, then `l`: it starts there */
  const fillThen = (until: number, l: string): void => {
    while (size < until) add(line(n++, 1500) + (n % 7 === 0 ? '\r' : ''));
    add(l);
  };
  // a 300 KB line whose first 100 KB end the first 4 MB chunk (carried in the next chunk's room)
  fillThen(4 * MB - 100 * 1024, line(n++, 300 * 1024));
  // one whose first 280 KB end the second (more than the room: joined with the next chunk)
  fillThen(8 * MB - 280 * 1024, line(n++, 300 * 1024));
  // a line longer than a chunk, a blank line, short lines across the next chunk's end
  fillThen(9 * MB, line(n++, 5 * MB));
  add('   ');
  fillThen(17 * MB, line(n++, 10));
  const text = parts.join('\n') + '\n' + line(n++, 10);
  const path = join(tempDir(), 'chunks.jsonl');
  writeFileSync(path, text, 'latin1');
  const sink = collector();
  const f = new JsonlFile(path, sink);
  await f.update();
  const want = expected(text);
  assert.equal(sink.seen.length, want.length);
  for (let i = 0; i < want.length; i++) assert.deepStrictEqual(sink.seen[i], want[i], `line ${want[i]!.line}`);
  assert.equal(f.pendingTail, true, 'the last line has no newline: offered provisionally');
  // the file grows: the provisional line is taken back and read whole, then the new lines
  const more = '\n' + line(n++, 2 * 1024 * 1024) + '\n' + line(n++, 5) + '\n';
  appendFileSync(path, more, 'latin1');
  await f.update();
  const all = expected(text + more);
  assert.equal(sink.seen.length, all.length);
  for (let i = want.length - 1; i < all.length; i++) assert.deepStrictEqual(sink.seen[i], all[i], `line ${all[i]!.line}`);
  assert.equal(f.pendingTail, false);
});
