import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { hubFolderChildren, problemBadge, runNode } from '../../src/extension/trees/treeModel';
import type { RunListing, IterationInfo } from '../../src/core/hub/model';
import { currentLatest } from '../../src/core/hub/download';
import type { RunProblems } from '../../src/extension/problems/dataProblems';

const it = (iteration: number): IterationInfo =>
  ({
    kind: 'resume',
    iteration,
    dir: `resume/iter_${String(iteration).padStart(7, '0')}`,
    files: [],
    bytes: 10,
    isLatest: iteration === 40,
  }) as unknown as IterationInfo;
const listing = {
  repo: 'a/b',
  commit: 'c'.repeat(40),
  latest: 40,
  resume: [it(20), it(40)],
  hf: [],
  logs: [],
  files: [],
  totalBytes: 0,
  warnings: [],
} as unknown as RunListing;

test('the Hub tree marks the iteration the local latest file names as "latest here", and only that one', () => {
  const nodes = hubFolderChildren('a/b', listing, 'resume', () => ({ state: 'complete' }), 20);
  const d = Object.fromEntries(nodes.map((n) => [n.label, n.description]));
  assert.equal(d['iter_0000020'], 'latest here, downloaded · 10 B · 0 files');
  assert.equal(d['iter_0000040 ★'], 'downloaded · 10 B · 0 files');
  const none = hubFolderChildren('a/b', listing, 'resume', () => ({ state: 'absent' }), null);
  assert.ok(none.every((n) => !n.description?.includes('latest here')));
});

test('a garbage, huge or missing latest file names nothing and never throws', async () => {
  const cases: [string, string | Buffer | null, number | null][] = [
    ['ok', '40\n', 40],
    ['garbage', 'iter_40', null],
    ['negative', '-4', null],
    ['huge', Buffer.alloc(1 << 20, '4'), null],
    ['binary', Buffer.from([0xff, 0xfe, 0x34, 0x00]), null],
    ['missing', null, null],
  ];
  for (const [name, content, want] of cases) {
    const dest = tempDir();
    if (content !== null) writeFileSync(join(dest, 'latest_checkpointed_iteration.txt'), content);
    assert.equal(await currentLatest(dest), want, name);
  }
  const dir = tempDir();
  mkdirSync(join(dir, 'latest_checkpointed_iteration.txt'));
  assert.equal(await currentLatest(dir), null, 'a folder');
});

test('a run with data problems shows a warning badge and a tooltip listing the kinds; a clean run is unchanged', () => {
  const p: RunProblems = {
    total: 3,
    groups: [
      { kind: 'skipped', file: '/r/ws_credit_log.jsonl', count: 2, problems: [] },
      { kind: 'duplicateMetric', file: '/r/ws_metrics.jsonl', count: 1, problems: [] },
    ],
  };
  const n = runNode('/r', 'run', undefined, 0, 1, undefined, problemBadge(p));
  assert.equal(n.icon, 'warning');
  assert.equal(n.description, '3 data problems · metrics only');
  assert.match(n.tooltip!, /3 data problems:\n- 2 skipped lines\n- 1 duplicate metric row\n/);
  assert.match(n.tooltip!, /Problems panel/);
  const clean = runNode('/r', 'run', undefined, 0, 1, undefined, problemBadge({ total: 0, groups: [] }));
  assert.deepEqual(clean, runNode('/r', 'run', undefined, 0, 1));
  assert.equal(clean.icon, 'graph-line');
  assert.equal(clean.description, 'metrics only');
});

test('a run on the Hub with data problems keeps its cloud icon; the badge leads its description', () => {
  const p: RunProblems = { total: 1, groups: [{ kind: 'nonFinite', file: '/r/ws_metrics.jsonl', count: 1, problems: [] }] };
  const n = runNode('hub:acme/run', 'acme/run', undefined, 0, 1, 'on the Hub', problemBadge(p));
  assert.equal(n.icon, 'cloud');
  assert.equal(n.description, '1 data problem · on the Hub · metrics only');
  assert.match(n.tooltip!, /1 data problem:/);
});
