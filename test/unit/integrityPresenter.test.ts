import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFolder } from '../../src/core/integrity/checkFolder';
import { hfIntegrityView, latestWarning, resumeIntegrityView } from '../../src/extension/trees/integrityPresenter';
import { CHECKPOINT_TREE } from '../checkpointFixtures';
import { shapeListing } from '../../src/core/hub/model';
import type { RunListing } from '../../src/core/hub/model';
import type { HubFile } from '../../src/core/hub/treeEntry';
import { hubFolderChildren, hubIterationNode, hubRepoChildren } from '../../src/extension/trees/treeModel';
import type { LocalState } from '../../src/extension/trees/treeModel';

test('each state of the fixtures: icon, description and a tooltip listing the shards with their sizes', async () => {
  const r = await checkFolder(CHECKPOINT_TREE);
  const ok = resumeIntegrityView(r.report.resume['iter_0000010']!, r.files.resume['iter_0000010']!);
  assert.equal(ok.icon, 'pass');
  assert.equal(ok.description, 'complete');
  assert.match(ok.tooltip, /__3_0\.distcp {2}21\.[0-9] KB/);
  const bad = resumeIntegrityView(r.report.resume['iter_0000030']!, r.files.resume['iter_0000030']!);
  assert.equal(bad.icon, 'error');
  // the row names what is missing and what is short (the sidebar cuts a long one: two names, then a count)
  assert.equal(bad.description, 'missing __3_0.distcp, metadata.json; short __1_0.distcp');
  assert.match(bad.tooltip, /__3_0\.distcp {2}missing/);
  // a missing file in its place among the others
  assert.match(bad.tooltip, /\n {2}__2_0\.distcp [^\n]*\n {2}__3_0\.distcp {2}missing\n {2}common\.pt /);
  assert.match(bad.tooltip, /__1_0\.distcp {2}10\.[0-9] KB \(short: needs 21\.[0-9] KB\)/);
  const unknown = resumeIntegrityView({ complete: null, reason: '.metadata refers to posix.system' }, []);
  assert.equal(unknown.icon, 'question');
  assert.match(unknown.tooltip, /cannot tell: \.metadata refers to posix\.system/);
  const why = resumeIntegrityView(
    { complete: null, reason: 'it has no .metadata (not a torch_dist checkpoint, or its upload never got that far)' },
    [],
  );
  assert.equal(why.description, 'cannot tell: it has no .metadata');
  const many = resumeIntegrityView({ complete: false, missing: ['a', 'b', 'c', 'd'], short: [] }, []);
  assert.equal(many.description, 'missing a, b +2');
  const hf = hfIntegrityView(r.report.hf['iter_0000010']!, r.files.hf['iter_0000010']!);
  assert.equal(hf.description, '3.6K params BF16');
  const hfBad = hfIntegrityView(r.report.hf['iter_0000030']!, r.files.hf['iter_0000030']!);
  assert.equal(hfBad.icon, 'error');
  assert.match(hfBad.tooltip, /model-00002-of-00002\.safetensors {2}missing/);
});

test('latest naming an incomplete checkpoint is a warning naming and offering the last complete one', async () => {
  const r = await checkFolder(CHECKPOINT_TREE);
  const w = latestWarning(r.report)!;
  assert.equal(w.offer, 20);
  // short enough for the sidebar's row; the tooltip says it whole
  assert.equal(w.label, 'latest 30 incomplete, 20 complete');
  assert.equal(w.description, 'click to download 20');
  assert.match(w.tooltip, /names 30: incomplete: .*The last complete one is 20\./s);
  assert.match(w.tooltip, /missing __3_0\.distcp, metadata\.json; short __1_0\.distcp/);
  assert.equal(latestWarning({ ...r.report, latest: { names: 20, namesComplete: true, lastComplete: 20 } }), undefined);
});

async function fixtureListing(): Promise<{ listing: RunListing; integrity: Awaited<ReturnType<typeof checkFolder>> }> {
  const integrity = await checkFolder(CHECKPOINT_TREE);
  const files: HubFile[] = [];
  for (const kind of ['resume', 'hf'] as const)
    for (const [dir, fs] of Object.entries(integrity.files[kind]))
      for (const f of fs) files.push({ path: `${kind}/${dir}/${f.name}`, size: f.size, oid: '0'.repeat(40) });
  return { listing: shapeListing('acme/run', 'main', 'c'.repeat(40), files, integrity.report.latest.names), integrity };
}

test('the Hub tree: each iteration shows its state, and the repo a warning whose click downloads the last complete one', async () => {
  const { listing, integrity } = await fixtureListing();
  const absent = (): LocalState => ({ state: 'absent' });
  const resume = hubFolderChildren('acme/run', listing, 'resume', absent, null, undefined, integrity);
  assert.deepEqual(
    resume.map((n) => [n.label, n.icon, n.description?.split(' · ')[0]]),
    [
      ['iter_0000030 ★', 'error', 'missing __3_0.distcp, metadata.json; short __1_0.distcp'],
      ['iter_0000020', 'cloud', 'complete'],
      ['iter_0000010', 'cloud', 'complete'],
    ],
  );
  assert.match(resume[0]!.tooltip!, /__3_0\.distcp {2}missing/);
  const hf = hubFolderChildren('acme/run', listing, 'hf', absent, null, undefined, integrity);
  assert.equal(hf[1]!.description?.split(' · ')[0], '3.6K params BF16');
  const children = hubRepoChildren('acme/run', listing, undefined, integrity);
  const warning = children[0]!;
  assert.ok(warning.id.endsWith(':latest-incomplete'), 'the warning comes first, above the folders');
  assert.equal(warning.icon, 'warning');
  assert.deepEqual(warning.command, {
    id: 'rlRunBrowser.downloadResume',
    args: [{ kind: 'iteration', repo: 'acme/run', folder: 'resume', iteration: 20 }],
  });
  assert.equal(
    hubRepoChildren('acme/run', listing, undefined).some((n) => n.id.endsWith(':latest-incomplete')),
    false,
    'no warning before the check has come back',
  );
});

test('a local destination: a downloaded resume checkpoint that is not whole on disk says so', async () => {
  const { listing, integrity } = await fixtureListing();
  const it = listing.resume.find((i) => i.iteration === 30)!;
  const check = resumeIntegrityView(integrity.report.resume['iter_0000030']!, integrity.files.resume['iter_0000030']!);
  const n = hubIterationNode('acme/run', it, { state: 'complete', check });
  assert.equal(n.icon, 'error');
  assert.match(n.description!, /^downloaded but missing __3_0\.distcp, metadata\.json; short __1_0\.distcp/);
  assert.match(n.tooltip!, /local copy: incomplete: missing __3_0\.distcp/);
  const whole = resumeIntegrityView(integrity.report.resume['iter_0000010']!, integrity.files.resume['iter_0000010']!);
  const ok = hubIterationNode('acme/run', listing.resume[0]!, { state: 'complete', check: whole });
  assert.equal(ok.icon, 'pass-filled');
  assert.match(ok.description!, /^downloaded ·/);
});
