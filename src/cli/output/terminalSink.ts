/**
 * An export to a terminal: the bytes decoded as UTF-8 (a character split across chunks kept
 * whole) and written through `safeText`, as `report` and `show` print (a CSV's CRLF shown as a
 * line end); to a file or a pipe the bytes go raw.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import type { ExportSink } from '../../core/export/sink';
import { writableSink } from '../../core/export/sink';
import { safeText } from './safeText';

export function terminalSink(stream: Writable): ExportSink {
  const decoder = new StringDecoder('utf8');
  const raw = writableSink(stream);
  // a CR at the end of a chunk waits for the next: it may be half of a CRLF
  let held = '';
  return {
    write: (chunk) => {
      const text = held + decoder.write(chunk);
      held = text.endsWith('\r') ? '\r' : '';
      const shown = (held ? text.slice(0, -1) : text).replace(/\r\n/g, '\n');
      return raw.write(Buffer.from(safeText(shown), 'utf8'));
    },
  };
}
