import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPickle } from '../../src/core/integrity/pickle';
import type { PickleObject } from '../../src/core/integrity/pickle';
import { readDistcpMetadata } from '../../src/core/integrity/distcpMetadata';
import { CHECKPOINT_TREE, EXPLOIT_METADATA, reference } from '../checkpointFixtures';

const b = (...parts: (number[] | string)[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

test('a torch 2.13 .metadata gives the shards, the bytes each must hold and the tensor count torch itself reads', () => {
  const ref = reference('tree');
  for (const dir of ['iter_0000010', 'iter_0000030']) {
    const md = readDistcpMetadata(readFileSync(join(CHECKPOINT_TREE, 'resume', dir, '.metadata')));
    assert.ok(md.ok, md.ok ? '' : md.reason);
    assert.deepEqual(md.needBytes, ref.resume[dir]!.needBytes);
    assert.equal(md.tensors, ref.resume[dir]!.tensors);
  }
});

test('an exploit .metadata (REDUCE of posix.system) is read as a record, never run, and is "cannot tell" with a reason', () => {
  const bytes = readFileSync(EXPLOIT_METADATA);
  const p = readPickle(bytes);
  assert.ok(p.ok);
  const o = p.value as PickleObject;
  assert.equal(o.kind, 'object');
  assert.deepEqual(o.callee, { kind: 'global', module: 'posix', name: 'system' });
  assert.deepEqual(o.args, ['echo pwned > /tmp/rlrb-pwned']);
  const md = readDistcpMetadata(bytes);
  assert.equal(md.ok, false);
  assert.match(md.ok ? '' : md.reason, /posix\.system/);
  assert.equal(md.ok ? undefined : md.unsafe, 'posix.system');
});

test('a foreign global before the point the reader refuses at is still named unsafe (pickle.load would call it first)', () => {
  // os.system('id') is called, then a persistent id makes both readers stop
  const evil = b([0x80, 4], 'cos\nsystem\n', [0x8c, 2], 'id', [0x85], 'R', 'K', [1], 'Q.');
  const p = readPickle(evil);
  assert.equal(p.ok, false);
  assert.deepEqual(p.globals, [{ kind: 'global', module: 'os', name: 'system' }]);
  const md = readDistcpMetadata(evil);
  assert.equal(md.ok ? undefined : md.unsafe, 'os.system');
  assert.match(md.ok ? '' : md.reason, /os\.system/);
  // cut, with only torch's own classes before the cut: cannot tell, not unsafe
  const real = readFileSync(join(CHECKPOINT_TREE, 'resume', 'iter_0000010', '.metadata'));
  const cut = readDistcpMetadata(real.subarray(0, real.length >> 1));
  assert.equal(cut.ok, false);
  assert.equal(cut.ok ? 'ok' : cut.unsafe, undefined);
});

test('a foreign call hidden inside an otherwise real Metadata is refused too (torch would run it on load)', () => {
  const real = readFileSync(join(CHECKPOINT_TREE, 'resume', 'iter_0000010', '.metadata'));
  // replace the final BUILD+STOP: BUILD, then POP the Metadata, push an os.system call, STOP on it
  const evil = b([...real.subarray(0, real.length - 1)], 'cos\nsystem\n', [0x8c, 2], 'id', [0x85], 'R', [0x30], '.');
  const md = readDistcpMetadata(evil);
  assert.equal(md.ok, false);
  assert.equal(md.ok ? undefined : md.unsafe, 'os.system');
});

test('protocol 0 and 2 opcodes: text GLOBAL/INT/PUT/GET, LONG1, BINFLOAT, lists, dicts and sets become plain values', () => {
  const p = readPickle(
    b(
      [0x80, 2],
      '((',
      'I5\n',
      'p0\n',
      'g0\n',
      [0x8a, 5, 0, 0, 0, 0, 1],
      'G',
      [0x3f, 0xf0, 0, 0, 0, 0, 0, 0],
      'l',
      ']',
      'K',
      [7],
      'a',
      '}',
      'U',
      [1],
      'k',
      'N',
      's',
      [0x8f],
      '(',
      'K',
      [1],
      [0x90],
      't.',
    ),
  );
  assert.ok(p.ok, p.ok ? '' : p.reason);
  assert.deepEqual(p.value, {
    kind: 'tuple',
    items: [[5, 5, 2 ** 32, 1], [7], { kind: 'dict', entries: [['k', null]] }, { kind: 'set', items: [1] }],
  });
});

test('refusals: unknown opcodes, persistent ids, truncation, memo misses, depth, memo and size bounds', () => {
  const reasons: [Uint8Array, RegExp, Parameters<typeof readPickle>[1]?][] = [
    [b([0x80, 4, 0xff]), /unknown pickle opcode 0xff/],
    [b([0x80, 4], 'K', [1], 'Q.'), /persistent object/],
    [b([0x80, 4], 'X', [9, 0, 0, 0], 'abc'), /ends inside/],
    [b([0x80, 4], 'K', [1]), /ends before its STOP/],
    [b([0x80, 4], 'h', [3], '.'), /memo entry 3/],
    [
      b([0x80, 4], ...Array<number[]>(40).fill([0x5d, 0x94]), ...Array<string>(39).fill('a'), '.'),
      /deeper than 8/,
      { maxBytes: 1e6, maxDepth: 8, maxMemo: 100, maxStack: 100 },
    ],
    [
      b([0x80, 4], ...Array<number[]>(20).fill([0x4e, 0x94, 0x30]), 'N.'),
      /memo grows past 10/,
      { maxBytes: 1e6, maxDepth: 8, maxMemo: 10, maxStack: 100 },
    ],
    [b([0x80, 4], 'N.'), /over the 3 bytes/, { maxBytes: 3, maxDepth: 8, maxMemo: 10, maxStack: 100 }],
    [b([0x80, 4], [0x82, 1], '.'), /extension registry/],
    [b([0x80, 4], 'a.'), /underflow|no value/],
  ];
  for (const [bytes, re, limits] of reasons) {
    const p = readPickle(bytes, limits);
    assert.equal(p.ok, false, String(re));
    assert.match(p.ok ? '' : p.reason, re);
  }
});

test('a self-appending list cannot nest without bound', () => {
  const p = readPickle(b([0x80, 4], ']', [0x94], ...Array<number[]>(100).fill([0x32, 0x68, 0, 0x61]), '.'), {
    maxBytes: 1e6,
    maxDepth: 16,
    maxMemo: 10,
    maxStack: 1000,
  });
  assert.equal(p.ok, false);
});
