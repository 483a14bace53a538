import type { TrajectoryFilter } from '../../src/shared/shapes';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { exportRows } from '../../src/core/export/exportRows';
import type { ExportProgress } from '../../src/core/export/exportRows';
import { selectRows } from '../../src/core/export/select';
import { SUMMARY_COLUMNS } from '../../src/core/export/summary';
import { csvField, csvHeader, csvLine, csvText } from '../../src/core/export/csv';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { groupEnd, inFileOrder } from '../../src/core/export/recordReader';
import type { ExportSink } from '../../src/core/export/sink';
import type { RecordHead } from '../fixtures';
import { main } from '../../src/cli/main';
import { tempDir } from '../helpers';

// The CLI tests run `rlrb export` (`main`) in a child process (this same file) so that stdout and exit codes are real.
const CHILD = process.env['RLRB_EXPORT_CHILD'];
if (CHILD !== undefined) {
  void main(['export', ...(JSON.parse(CHILD) as string[])]).then((code) => {
    process.exitCode = code;
  });
} else {
  defineTests();
}

/** A test record: the fixtures' head and its turns. */
interface Rec extends RecordHead {
  turns: unknown[];
}

const rec = (iteration: number, group: number, rollout: number, extra: Partial<Rec> = {}): Rec => ({
  iteration,
  group,
  rollout,
  reward: rollout === 0 ? 1 : 0,
  A: rollout === 0 ? 0.5 : -0.5,
  turns: [{ action: 'wait()', scores: [1, 2], same: [true, false], done: [false, false], c: 0.25, A_t: rollout === 0 ? 0.6 : 0.1 }],
  ...extra,
});

/** A CRLF log with a BOM, blank and bad lines, odd spacing and non-ASCII text; the last line has no line ending. */
function crlfLog(dir: string): { path: string; lines: string[] } {
  const lines: string[] = [];
  for (let it = 0; it < 4; it++)
    for (let r = 0; r < 3; r++) {
      const o = rec(it, 0, r, { instruction: `tâche ${it}/${r} — “go”` });
      // some records keep the writer's own spacing, which a re-serialiser would lose
      lines.push(r === 1 ? JSON.stringify(o, null, 0).replace(/,/g, ', ') : JSON.stringify(o));
    }
  const body = [lines[0], '', lines[1], 'not json', ...lines.slice(2)].join('\r\n');
  const path = join(dir, 'ws_credit_log.jsonl');
  writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body, 'utf8')]));
  return { path, lines };
}

class CollectSink implements ExportSink {
  chunks: Buffer[] = [];
  async write(chunk: Buffer): Promise<void> {
    this.chunks.push(chunk);
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

async function indexOf(path: string): Promise<CreditIndex> {
  const idx = new CreditIndex(path);
  await idx.update();
  return idx;
}

/** A small RFC 4180 reader, to read back what the writer wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
    i++;
  }
  assert.equal(row.length + field.length, 0, 'the CSV ends with CRLF');
  return rows;
}

function rlrbExport(...args: string[]): { code: number; out: Buffer; err: string } {
  const r = spawnSync(process.execPath, [__filename], { env: { ...process.env, RLRB_EXPORT_CHILD: JSON.stringify(args) } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr.toString('utf8') };
}

function defineTests(): void {
  test('JSONL: the selected lines byte for byte, from a CRLF file with a BOM, for filters that cut inside it', async () => {
    const { path, lines } = crlfLog(tempDir());
    const idx = await indexOf(path);
    assert.equal(idx.size, 12);
    const cases: [TrajectoryFilter, (r: Rec) => boolean][] = [
      [{}, () => true],
      [{ iterationMin: 1, iterationMax: 2 }, (r) => r.iteration >= 1 && r.iteration <= 2],
      [{ iterationMax: 0, reward: 'failure' }, (r) => r.iteration === 0 && r.reward <= 0],
      [{ iterationMin: 3 }, (r) => r.iteration >= 3],
      [{ reward: 'success', text: 'TÂCHE 2' }, (r) => r.reward > 0 && r.iteration === 2],
    ];
    for (const [filter, keep] of cases) {
      const expected = lines.filter((l) => keep(JSON.parse(l) as Rec)).map((l) => l + '\n');
      for (const sizes of [{}, { window: 200, chunk: 150 }, { window: 1, chunk: 1 }]) {
        const sink = new CollectSink();
        const rows = await selectRows(idx, filter);
        const r = await exportRows(idx, rows, 'jsonl', sink, sizes);
        assert.equal(r.rows, expected.length, JSON.stringify(filter));
        assert.ok(sink.bytes.equals(Buffer.from(expected.join(''), 'utf8')), `${JSON.stringify(filter)} ${JSON.stringify(sizes)}`);
      }
    }
  });

  test('JSONL: rows given in any order are written in file order', async () => {
    const { path, lines } = crlfLog(tempDir());
    const idx = await indexOf(path);
    const sink = new CollectSink();
    await exportRows(idx, [7, 2, 11, 0], 'jsonl', sink);
    assert.equal(sink.bytes.toString('utf8'), [0, 2, 7, 11].map((i) => lines[i] + '\n').join(''));
  });

  test('CSV: header, one row per trajectory, RFC 4180 quoting of commas, quotes and line breaks, CRLF ends', async () => {
    const tricky = ['plain', 'a, b', 'say "hi"', 'two\nlines', 'cr\r\nlf', '"', ',', ' lead and trail '];
    const dir = tempDir();
    const path = join(dir, 'ws_credit_log.jsonl');
    const recs = tricky.map((instruction, k) => rec(0, k, 0, { instruction }));
    const lines = recs.map((r) => JSON.stringify(r));
    lines.push('{"iteration": 1, "group": 0, "rollout": 0, "reward": NaN, "A": Infinity, "task_id": "t,1", "turns": []}');
    writeFileSync(path, lines.join('\n') + '\n');
    const idx = await indexOf(path);
    const sink = new CollectSink();
    await exportRows(idx, await selectRows(idx, {}), 'csv', sink, { chunk: 64 });
    const text = sink.bytes.toString('utf8');
    assert.ok(text.startsWith(csvHeader()));
    assert.match(text, /,"say ""hi""",/);
    assert.match(text, /,"two\nlines",/);
    const rows = parseCsv(text);
    const head = rows[0]!;
    assert.deepEqual(
      head,
      SUMMARY_COLUMNS.map((c) => c.name),
    );
    assert.equal(rows.length, 1 + tricky.length + 1);
    const col = (name: string): number => head.indexOf(name);
    tricky.forEach((instruction, k) => {
      const r = rows[k + 1]!;
      assert.equal(r.length, head.length);
      assert.equal(r[col('instruction')], instruction);
      assert.equal(r[col('group')], String(k));
      assert.equal(r[col('reward')], '1');
      assert.equal(r[col('A')], '0.5');
      assert.equal(r[col('labeled')], 'true');
      assert.equal(r[col('mean_c')], '0.25');
      assert.equal(r[col('line')], String(k + 1));
    });
    const last = rows[rows.length - 1]!;
    assert.equal(last[col('reward')], '', 'NaN is an empty field');
    assert.equal(last[col('A')], '', 'Infinity is an empty field');
    assert.equal(last[col('task_id')], 't,1');
    assert.equal(last[col('instruction')], '');
    assert.equal(last[col('mean_c')], '');
  });

  test('csvField quotes exactly when RFC 4180 asks', () => {
    assert.equal(csvField('abc'), 'abc');
    assert.equal(csvField(''), '');
    assert.equal(csvField('a"b'), '"a""b"');
    assert.equal(csvField('a\rb'), '"a\rb"');
    assert.equal(csvField(' x '), ' x ');
  });

  test('reads are grouped in file order within the window; gaps larger than the limit are skipped', () => {
    const offsets = [0, 10, 20, 1000, 1010];
    const src = { offset: (i: number) => offsets[i]!, length: () => 10 };
    const ids = inFileOrder([4, 0, 3, 1, 2], src);
    assert.deepEqual([...ids], [0, 1, 2, 3, 4]);
    assert.equal(groupEnd(ids, 0, src, 1 << 20, 64), 3, 'the gap of 970 bytes ends the read');
    assert.equal(groupEnd(ids, 0, src, 20, 64), 2, 'the window ends the read');
    assert.equal(groupEnd(ids, 3, src, 1 << 20, 64), 5);
    assert.equal(groupEnd(ids, 0, src, 1, 64), 1, 'a record larger than the window is read alone');
  });

  test('a large export streams: what was read and not yet written stays under 2 MB, chunks stay small', async () => {
    const dir = tempDir();
    const path = join(dir, 'ws_credit_log.jsonl');
    const pad = 'x'.repeat(2000);
    const parts: string[] = [];
    for (let i = 0; i < 8000; i++) parts.push(JSON.stringify(rec(i >> 4, (i >> 2) & 3, i & 3, { instruction: pad })));
    writeFileSync(path, parts.join('\n') + '\n');
    const idx = await indexOf(path);
    let written = 0;
    let biggest = 0;
    let worstLag = 0;
    const sink: ExportSink = {
      write: async (c) => {
        written += c.length;
        biggest = Math.max(biggest, c.length);
      },
    };
    const onProgress = (p: ExportProgress): void => {
      worstLag = Math.max(worstLag, p.bytesRead - written);
    };
    const r = await exportRows(idx, await selectRows(idx, {}), 'jsonl', sink, { onProgress });
    assert.ok(r.bytes > 16e6, `${r.bytes}`);
    assert.equal(written, r.bytes);
    assert.ok(worstLag < 2e6, `read ahead of the sink by ${worstLag} bytes`);
    assert.ok(biggest <= 256 * 1024, `a chunk of ${biggest} bytes`);
  });

  test('an export is cancelled by its signal', async () => {
    const { path } = crlfLog(tempDir());
    const idx = await indexOf(path);
    const ac = new AbortController();
    let n = 0;
    const sink: ExportSink = {
      write: async () => {
        if (++n === 2) ac.abort();
      },
    };
    await assert.rejects(exportRows(idx, await selectRows(idx, {}), 'jsonl', sink, { chunk: 1, signal: ac.signal }), {
      name: 'AbortError',
    });
  });

  test('a log replaced or rewritten under the export fails it with the file named, never with wrong bytes', async () => {
    const { path, lines } = crlfLog(tempDir());
    const idx = await indexOf(path);
    let first = true;
    const replacing: ExportSink = {
      write: async () => {
        if (!first) return;
        first = false;
        writeFileSync(path, lines.slice(0, 2).join('\n') + '\n');
        await idx.update();
      },
    };
    await assert.rejects(exportRows(idx, await selectRows(idx, {}), 'jsonl', replacing, { chunk: 1 }), /replaced during the export/);
    const again = await indexOf(path);
    const size = readFileSync(path).length;
    writeFileSync(path, 'x'.repeat(size));
    await assert.rejects(
      exportRows(again, [1], 'jsonl', new CollectSink()),
      (e: Error) => e.message === `${path}:2: the record changed on disk; index it again`,
    );
  });

  test('rlrb export: JSONL to stdout and CSV to --out with the browser filters; nothing left behind', () => {
    const dir = tempDir();
    const { path, lines } = crlfLog(dir);
    const a = rlrbExport(dir, '--format', 'jsonl', '--iteration-min', '1', '--iteration-max', '2', '--reward', 'failure');
    assert.equal(a.code, 0, a.err);
    const want = lines.filter((l) => {
      const r = JSON.parse(l) as Rec;
      return r.iteration >= 1 && r.iteration <= 2 && r.reward <= 0;
    });
    assert.equal(a.out.toString('utf8'), want.map((l) => l + '\n').join(''));
    assert.match(a.err, /skipped 1 line\(s\).*line 4/);
    const out = join(dir, 'sel.csv');
    const b = rlrbExport(path, '--format', 'csv', '--group', '0', '--labeled', '--flag', 'sign-flip', '--text', 'tâche 3', '--out', out);
    assert.equal(b.code, 0, b.err);
    assert.equal(b.out.length, 0);
    const rows = parseCsv(readFileSync(out, 'utf8'));
    assert.deepEqual(
      rows.slice(1).map((r) => [r[0], r[2]]),
      [
        ['3', '1'],
        ['3', '2'],
      ],
    );
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('partial')),
      [],
    );
    const c = rlrbExport(path, '--format', 'jsonl', '--flag', 'sign-flip');
    assert.equal(c.code, 0, c.err);
    assert.equal(c.out.toString('utf8').split('\n').length - 1, 8, 'the rollouts with A < 0 and A_t > 0');
    const argmax = rlrbExport(path, '--format', 'jsonl', '--flag', 'argmax');
    assert.equal(argmax.out.length, 0, 'no executed action scores highest');
    const d = rlrbExport(path, '--format', 'jsonl', '--flag', 'sign-flip', '--flag', 'fallback');
    assert.equal(d.code, 0, d.err);
    assert.equal(d.out.length, 0, 'every --flag must hold');
  });

  test('rlrb export: bad usage and unreadable logs exit 2 with one line naming the flag', () => {
    const dir = tempDir();
    const { path } = crlfLog(dir);
    const cases: [string[], RegExp][] = [
      [[path, '--format', 'jsonl', '--frobnicate'], /unknown flag --frobnicate/],
      [[path, '--format', 'xml'], /--format takes jsonl\|csv\|parquet, not "xml"/],
      [[path], /--format jsonl\|csv\|parquet is required/],
      [[path, '--format', 'parquet'], /--format parquet is binary: give --out FILE/],
      [['--format', 'csv'], /usage: rlrb export/],
      [[path, path, '--format', 'csv'], /one run at a time/],
      [[path, '--format', 'csv', '--iteration-min', '1.5'], /--iteration-min must be a whole number/],
      [[path, '--format', 'csv', '--group=-1'], /--group must be a whole number/],
      [[path, '--format', 'csv', '--group', '-1'], /--group must be a whole number >= 0, not "-1"/],
      [[path, '--format', 'csv', '--labeled=yes'], /--labeled takes no value/],
      [[path, '--format', 'csv', '--out', '--labeled'], /--out needs a value/],
      [[path, '--format', 'csv', '--group', '9007199254740993'], /--group must be a whole number/],
      [[path, '--format', 'csv', '--reward', 'maybe'], /--reward takes success\|failure\|format/],
      [[path, '--format', 'csv', '--flag', 'odd'], /--flag takes sign-flip\|argmax\|fallback/],
      [[path, '--format', 'csv', '--group', '1', '--group', '2'], /--group is given twice/],
      [[path, '--format', 'csv', '--text', ' '], /--text needs a non-empty value/],
      [[path, '--format'], /--format needs a value/],
      [[path, '--format', 'csv', '--out', path], /is the log being exported/],
      [[join(dir, 'nothing-here'), '--format', 'csv'], /no run here/],
      [[path, '--format', 'csv', '--map', join(dir, 'no-map.json')], /cannot read the mapping file/],
    ];
    for (const [args, message] of cases) {
      const r = rlrbExport(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      assert.match(r.err, /^rlrb: /);
      assert.match(r.err, message);
      assert.equal(r.out.length, 0);
    }
    assert.ok(existsSync(path), 'the log is still there');
    const h = rlrbExport('--help');
    assert.equal(h.code, 0);
    assert.match(h.out.toString('utf8'), /usage: rlrb export/);
  });

  test('Parquet: one typed row per trajectory, in row groups, each row equal to the CSV export of the same filter', async () => {
    const dir = tempDir();
    const path = join(dir, 'ws_credit_log.jsonl');
    const tricky = ['plain', 'a, b', 'say "hi"', 'two\nlines', '=SUM(A1)', 'tâche — “go”', ''];
    const lines = tricky.map((instruction, k) => JSON.stringify(rec(k % 3, k, k % 2, { instruction })));
    lines.push('{"iteration": 3, "group": 0, "rollout": 0, "reward": NaN, "A": Infinity, "task_id": "t,1", "turns": []}');
    writeFileSync(path, lines.join('\n') + '\n');
    const idx = await indexOf(path);
    for (const filter of [{}, { iterationMin: 1 }, { reward: 'failure' as const }]) {
      const rows = await selectRows(idx, filter);
      const csv = new CollectSink();
      await exportRows(idx, rows, 'csv', csv);
      const pq = new CollectSink();
      const r = await exportRows(idx, rows, 'parquet', pq, { rowGroup: 3 });
      assert.equal(r.rows, rows.length);
      assert.equal(r.bytes, pq.bytes.length);
      const file = arrayBufferOf(pq.bytes);
      const meta = parquetMetadata(file);
      assert.equal(meta.row_groups.length, Math.ceil(rows.length / 3), 'a row group every 3 rows');
      const objects = (await parquetReadObjects({ file })) as Record<string, unknown>[];
      assert.equal(objects.length, rows.length);
      const asCsv = objects
        .map((o) => csvLine(SUMMARY_COLUMNS.map((c) => csvText(typeof o[c.name] === 'bigint' ? Number(o[c.name]) : (o[c.name] as never)))))
        .join('');
      assert.equal(csvHeader() + asCsv, csv.bytes.toString('utf8'), JSON.stringify(filter));
      if (rows.length === 0) continue;
      const types = Object.fromEntries(meta.schema.slice(1).map((e) => [e.name, e.type]));
      assert.deepEqual(
        [types['iteration'], types['reward'], types['instruction'], types['labeled']],
        ['INT64', 'DOUBLE', 'BYTE_ARRAY', 'BOOLEAN'],
      );
    }
    const all = (await parquetReadObjects({ file: await exportedParquet(idx) })) as Record<string, unknown>[];
    const odd = all.find((o) => o['task_id'] === 't,1')!;
    assert.deepEqual(
      [odd['reward'], odd['A'], odd['instruction'], odd['iteration']],
      [null, null, null, 3n],
      'null where absent; ints as ints',
    );
    assert.equal(all.find((o) => o['group'] === 4n)!['instruction'], '=SUM(A1)', 'no spreadsheet guard in Parquet');
  });

  test('rlrb export --format parquet --out writes a Parquet file of the filter', async () => {
    const dir = tempDir();
    const { path } = crlfLog(dir);
    const out = join(dir, 'sel.parquet');
    const r = rlrbExport(path, '--format', 'parquet', '--iteration-min', '2', '--out', out);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.length, 0);
    const b = readFileSync(out);
    const rows = (await parquetReadObjects({ file: arrayBufferOf(b) })) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((o) => [o['iteration'], o['rollout']]),
      [2n, 3n].flatMap((i) => [0n, 1n, 2n].map((k) => [i, k])),
    );
  });
}

async function exportedParquet(idx: CreditIndex): Promise<ArrayBuffer> {
  const sink = new CollectSink();
  await exportRows(idx, await selectRows(idx, {}), 'parquet', sink);
  return arrayBufferOf(sink.bytes);
}

/** A copy of the bytes as the ArrayBuffer hyparquet reads. */
const arrayBufferOf = (b: Buffer): ArrayBuffer => new Uint8Array(b).buffer;
