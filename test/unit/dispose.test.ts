import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable, disposeAll, toDisposable } from '../../src/extension/dispose';

class Owner extends Disposable {
  own(d: { dispose(): void }): void {
    this._register(d);
  }
  get gone(): boolean {
    return this.isDisposed;
  }
}

test('dispose helper: everything registered is disposed once, newest first; late ones at once', () => {
  const log: string[] = [];
  const o = new Owner();
  o.own(toDisposable(() => log.push('listener')));
  o.own(toDisposable(() => log.push('emitter')));
  assert.equal(log.length, 0);
  o.dispose();
  o.dispose();
  assert.deepEqual(log, ['emitter', 'listener']);
  assert.ok(o.gone);
  o.own(toDisposable(() => log.push('late')));
  assert.deepEqual(log, ['emitter', 'listener', 'late']);
});

test('dispose helper: one that throws does not keep the others alive, and its error is not lost', () => {
  const log: string[] = [];
  const list = [
    toDisposable(() => log.push('a')),
    {
      dispose: () => {
        throw new Error('boom');
      },
    },
    toDisposable(() => log.push('c')),
  ];
  assert.throws(() => disposeAll(list), /boom/);
  assert.deepEqual(log, ['c', 'a']);
  assert.equal(list.length, 0);
  const two = [
    {
      dispose: () => {
        throw new Error('x');
      },
    },
    {
      dispose: () => {
        throw new Error('y');
      },
    },
  ];
  assert.throws(
    () => disposeAll(two),
    (e: unknown) => e instanceof AggregateError && e.errors.length === 2,
  );
});
