/** The dataset's turn table: its row writer (typed cells) writes the bytes its columns' `get`s write. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parquetReadObjects } from 'hyparquet';
import { ParquetTable } from '../../src/core/export/parquetTable';
import type { ExportSink } from '../../src/core/export/sink';
import { TURN_COLUMNS, markBits, writeTurnRow } from '../../src/core/export/dataset/tables';
import type { TurnEntry } from '../../src/core/export/dataset/tables';
import { classifyTurn, newTurnClass } from '../../src/core/credit/turnMarks';
import type { TurnInput } from '../../src/core/credit/turnMarks';
import { DEFAULT_INDEX_OPTIONS } from '../../src/core/log/creditIndex';

const TURNS: TurnInput[] = [
  {
    scores: [1.5, -2, 0.25],
    same: [true, false, false],
    done: [false, false, true],
    candidates: null,
    c: 0.3,
    At: 0.62,
    masked: false,
    fallback: false,
  },
  { scores: null, same: null, done: null, candidates: null, c: undefined, At: undefined, masked: false, fallback: false },
  { scores: [], same: [], done: [], candidates: null, c: null, At: NaN, masked: true, fallback: true },
  { scores: [3, null, -1e300], same: [true, true], done: null, candidates: null, c: -0.9, At: 0.5 - 0.36, masked: false, fallback: true },
  { scores: [0.1, 0.2], same: [true, false], done: [false, false], candidates: null, c: 2, At: 1.3, masked: false, fallback: false },
];
const ACTIONS: (string | Uint8Array | null)[] = [
  Buffer.from('click(point_2d=[1, 2])'),
  'type(text="é\\"")',
  null,
  '😀 done()',
  Buffer.from(''),
];

function entries(): TurnEntry[] {
  // one id view a trajectory, shared by its turns' entries as the dataset's writer shares it
  const ids = new Map<string, Pick<TurnEntry, 'idBytes' | 'idLength' | 'idView'>>();
  return TURNS.map((t, k) => {
    const id = k < 3 ? 'run/0/1/2' : 'run/0/1/3#9';
    let v = ids.get(id);
    if (!v) {
      const idBytes = Buffer.alloc(64);
      const n = idBytes.write(id);
      idBytes[n] = 0x2f;
      v = { idBytes, idLength: n, idView: idBytes.subarray(0, n) };
      ids.set(id, v);
    }
    const e: TurnEntry = {
      ...v,
      group: 1,
      rollout: k < 3 ? 2 : 3,
      turn: t,
      index: k,
      action: ACTIONS[k]!,
      cls: classifyTurn(t, 0.5, DEFAULT_INDEX_OPTIONS.credit, DEFAULT_INDEX_OPTIONS.match, newTurnClass()),
      windows: k,
      collapsed: k === 4,
      marks: 0,
    };
    e.marks = markBits(e);
    return e;
  });
}

async function written(rowWriter: boolean, groupRows = 2): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink: ExportSink = { write: async (c) => void chunks.push(Buffer.from(c)) };
  const t = new ParquetTable(TURN_COLUMNS, sink, groupRows, rowWriter ? writeTurnRow : undefined);
  // a row is read at once: one entry per row here, as the writer reuses one
  for (const e of entries()) await t.add(e);
  await t.finish();
  return Buffer.concat(chunks);
}

test('the turn row writer writes the bytes of the columns’ gets', async () => {
  // a trajectory's id repeated within a row group and across its end
  for (const groupRows of [2, 3, 10]) {
    const same = (await written(false, groupRows)).equals(await written(true, groupRows));
    assert.ok(same, `the same file, byte for byte, row groups of ${groupRows}`);
  }
  const fast = await written(true);
  const rows = (await parquetReadObjects({ file: new Uint8Array(fast).buffer })) as Record<string, unknown>[];
  assert.deepEqual(
    rows.map((r) => [r['turn_id'], r['action'], r['c'], r['scores'] ?? null]),
    [
      ['run/0/1/2/0', 'click(point_2d=[1, 2])', 0.3, [1.5, -2, 0.25]],
      ['run/0/1/2/1', 'type(text="é\\"")', null, null],
      ['run/0/1/2/2', null, null, []],
      ['run/0/1/3#9/3', '😀 done()', -0.9, [3, null, -1e300]],
      ['run/0/1/3#9/4', '', 2, [0.1, 0.2]],
    ],
  );
});
