import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { shapeListing } from '../../src/core/hub/model';
import {
  hubRepoChildren,
  hubFolderChildren,
  hubIterationNode,
  hubRepoNode,
  iterationNodes,
  groupNodes,
  trajectoryNodes,
  runChildren,
} from '../../src/extension/trees/treeModel';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { summarizeIterations } from '../../src/core/run/iterationSummary';
import { parseHubNode, parseOpenTrajectoriesArgs, parseRunArg } from '../../src/extension/commandArgs';
import { USER_ONLY_SETTINGS, ignoredSettingsWarning, readSettings } from '../../src/extension/settings';
import type { ConfigSource } from '../../src/extension/settings';
import { resolveEndpoint } from '../../src/core/hub/config';

/** A configuration with user, workspace and folder levels; `get` merges them as VS Code does without scopes. */
function fakeConfig(levels: {
  user?: Record<string, unknown>;
  workspace?: Record<string, unknown>;
  folder?: Record<string, unknown>;
}): ConfigSource {
  const { user = {}, workspace = {}, folder = {} } = levels;
  return {
    get: (k) => folder[k] ?? workspace[k] ?? user[k],
    inspect: (k) => ({ globalValue: user[k], workspaceValue: workspace[k], workspaceFolderValue: folder[k] }),
  };
}

const files = [
  { path: 'resume/iter_0000019/__0_0.distcp', size: 1000, oid: 'a', lfsSha256: 'x'.repeat(64) },
  { path: 'resume/iter_0000019/common.pt', size: 10, oid: 'b' },
  { path: 'resume/iter_0000039/__0_0.distcp', size: 3000, oid: 'c', lfsSha256: 'y'.repeat(64) },
  { path: 'resume/latest_checkpointed_iteration.txt', size: 2, oid: 'd' },
  { path: 'hf/iter_0000039/config.json', size: 5, oid: 'e' },
  { path: 'logs/ws_metrics.jsonl', size: 50, oid: 'f' },
  { path: 'README.md', size: 5, oid: 'g' },
];

test('Hub tree: repo -> resume/hf/logs -> iterations (newest first, latest starred, local state) -> files', () => {
  const l = shapeListing('o/r', 'main', 'abc123', files, 39);
  const repo = hubRepoNode('o/r', l, undefined, false);
  assert.equal(repo.label, 'o/r');
  assert.match(repo.description!, /2 resume · 1 hf/);
  const kids = hubRepoChildren('o/r', l, undefined);
  assert.deepEqual(
    kids.map((k) => k.label),
    ['resume', 'hf', 'logs'],
  );
  assert.match(kids[0]!.description!, /2 iterations · 4\.01 KB/);
  const its = hubFolderChildren('o/r', l, 'resume', (it) =>
    it.iteration === 19 ? { state: 'partial', percent: 42 } : { state: 'complete' },
  );
  assert.deepEqual(
    its.map((n) => n.label),
    ['iter_0000039 ★', 'iter_0000019'],
  );
  assert.match(its[0]!.description!, /downloaded · 3\.00 KB · 1 files/);
  assert.match(its[1]!.description!, /partial 42%/);
  assert.equal(its[0]!.contextValue, 'hubIteration+resume+latest+complete');
  assert.equal(its[0]!.id, 'hub:o/r:resume:39');
  const logs = hubFolderChildren('o/r', l, 'logs', () => ({ state: 'absent' }));
  assert.deepEqual(
    logs.map((n) => n.label),
    ['ws_metrics.jsonl'],
  );
  const odd = shapeListing(
    'o/r',
    'main',
    'abc123',
    [...files, { path: 'resume/iter_00000000000000000019/x.distcp', size: 1, oid: 'a'.repeat(40) }],
    39,
  );
  assert.ok(odd.warnings.length > 0);
  const rows = hubRepoChildren('o/r', odd, undefined).filter((k) => k.kind === 'message');
  assert.deepEqual(
    rows.map((r) => [r.label, r.icon]),
    odd.warnings.map((w) => [w, 'warning']),
    'every warning of the listing is a row under the repo',
  );
  const many = hubRepoChildren('o/r', { ...l, warnings: Array.from({ length: 25 }, (_, i) => `w${i}`) }, undefined).filter(
    (k) => k.kind === 'message',
  );
  assert.equal(many.length, 21);
  assert.match(many[20]!.label, /^5 more warnings/);
  const err = hubRepoChildren('o/r', undefined, 'repository o/r not found');
  assert.equal(err[0]!.label, 'repository o/r not found');
  assert.equal(hubIterationNode('o/r', l.resume[0]!, { state: 'absent' }).icon, 'cloud');
});

test('Local runs tree: run -> Metrics, Run report, Iterations -> groups -> trajectories', async () => {
  const p = join(tempDir(), 'ws_credit_log.jsonl');
  writeFileSync(p, jsonl(HAND_LOG));
  const idx = new CreditIndex(p);
  await idx.update();
  assert.deepEqual(
    runChildren('/r', true, true).map((n) => n.label),
    ['Metrics', 'Run report', 'Iterations'],
  );
  assert.deepEqual(
    runChildren('/r', false, true).map((n) => n.label),
    ['Metrics'],
  );
  const its = summarizeIterations(idx);
  const nodes = iterationNodes('/r', its);
  assert.deepEqual(
    nodes.map((n) => n.label),
    ['iteration 0', 'iteration 1'],
  );
  assert.match(nodes[0]!.description!, /3 traj · reward \+0\.333 · 2 labeled/);
  assert.deepEqual(nodes[0]!.command, {
    id: 'rlRunBrowser.openTrajectories',
    args: [{ root: '/r', filter: { iterationMin: 0, iterationMax: 0 } }],
  });
  const groups = groupNodes('/r', idx, its.get(0)!);
  assert.equal(groups[0]!.description, 'rewards 1 0 0');
  const trajs = trajectoryNodes('/r', idx, 0, 0, its.get(0)!.groups.get(0)!);
  assert.deepEqual(
    trajs.map((t) => t.label),
    ['rollout 0 ●', 'rollout 1 ●', 'rollout 2'],
  );
  assert.match(trajs[0]!.description!, /R 1 · A 1 · c̄ \+0\.531/);
  assert.equal(trajs[2]!.id, 'run:/r:it:0:g:0:r:2');
  assert.deepEqual(trajs[1]!.command!.args, [{ root: '/r', iteration: 0, group: 0, rollout: 1 }]);
});

test('command arguments: a run from anything, trajectories with iteration/group/rollout and filters', () => {
  assert.equal(parseRunArg('/a'), '/a');
  assert.equal(parseRunArg({ root: '/b' }), '/b');
  assert.equal(parseRunArg({ fsPath: '/c' }), '/c');
  assert.equal(parseRunArg(42), undefined);
  assert.deepEqual(parseOpenTrajectoriesArgs({ root: '/r', iteration: 3, group: 2, rollout: 1 }), {
    root: '/r',
    filter: { iterationMin: 3, iterationMax: 3, group: 2 },
    select: { iteration: 3, group: 2, rollout: 1 },
  });
  assert.deepEqual(
    parseOpenTrajectoriesArgs({
      iteration: 5,
      filter: { flags: 1, reward: 'nope', text: 'click' },
      sort: [{ key: 'meanC', descending: true }, 7],
    }),
    { filter: { flags: 1, text: 'click', iterationMin: 5, iterationMax: 5 }, sort: [{ key: 'meanC', descending: true }] },
  );
  assert.deepEqual(parseOpenTrajectoriesArgs(undefined), {});
});

test('Hub node arguments: tree nodes and their bare shapes pass, anything else is undefined', () => {
  const l = shapeListing('o/r', 'main', 'abc123', files, 39);
  const [resume, , logs] = hubRepoChildren('o/r', l, undefined);
  assert.deepEqual(parseHubNode(resume), { kind: 'folder', repo: 'o/r', folder: 'resume' });
  assert.deepEqual(parseHubNode(logs), { kind: 'folder', repo: 'o/r', folder: 'logs' });
  const it = hubFolderChildren('o/r', l, 'resume', () => ({ state: 'absent' }))[0];
  assert.deepEqual(parseHubNode(it), { kind: 'iteration', repo: 'o/r', folder: 'resume', iteration: 39 });
  assert.deepEqual(parseHubNode(hubRepoNode('o/r', l, undefined, false)), { kind: 'repo', repo: 'o/r' });
  assert.deepEqual(parseHubNode({ kind: 'file', repo: 'o/r', path: 'hf/iter_0000039/config.json' }), {
    kind: 'file',
    repo: 'o/r',
    path: 'hf/iter_0000039/config.json',
  });
  for (const bad of [
    undefined,
    null,
    'o/r',
    ['o/r'],
    { kind: 'repo' },
    { kind: 'repo', repo: '../../etc' },
    { kind: 'repo', repo: 'o/r/x' },
    { kind: 'nope', repo: 'o/r' },
    { kind: 'folder', repo: 'o/r', folder: 'secrets' },
    { kind: 'iteration', repo: 'o/r', folder: 'logs', iteration: 3 },
    { kind: 'iteration', repo: 'o/r', folder: 'hf', iteration: '3' },
    { kind: 'iteration', repo: 'o/r', folder: 'hf', iteration: 3.5 },
    { kind: 'iteration', repo: 'o/r', folder: 'hf', iteration: -1 },
    { kind: 'iteration', repo: 'o/r', folder: 'hf', iteration: 2 ** 60 },
    { kind: 'file', repo: 'o/r', path: 7 },
  ])
    assert.equal(parseHubNode(bad), undefined, JSON.stringify(bad));
});

test('settings: defaults, ranges and bad values reported by name', () => {
  const d = readSettings(fakeConfig({}));
  assert.deepEqual(d.repos, ['XunmeiLiu/openwebrl-ws-credit-beta0.4']);
  assert.equal(d.downloadConcurrency, 1);
  assert.equal(d.stallTimeoutSeconds, 30);
  assert.deepEqual(d.index.credit, { beta: 0.4, tau: 20 });
  assert.deepEqual(d.index.match, { clickTolerance: 20, keyCaseInsensitive: true });
  assert.equal(d.autoRefreshHubMinutes, 0);
  assert.deepEqual(d.problems, []);
  assert.deepEqual(d.ignoredWorkspaceValues, []);
  const vals: Record<string, unknown> = {
    repos: ['a/b', 'not a repo'],
    tau: -1,
    downloadConcurrency: 99,
    stallTimeoutSeconds: 2,
    fieldMapping: { reward: 'outcome_x', bogus: 'y' },
    keyCaseInsensitive: false,
    autoRefreshHub: true,
    beta: 0.25,
  };
  const s = readSettings(fakeConfig({ user: vals }));
  assert.deepEqual(s.repos, ['a/b']);
  assert.equal(s.index.credit.tau, 20);
  assert.equal(s.index.credit.beta, 0.25);
  assert.equal(s.downloadConcurrency, 1);
  assert.equal(s.stallTimeoutSeconds, 30);
  assert.equal(readSettings(fakeConfig({ user: { stallTimeoutSeconds: 12 } })).stallTimeoutSeconds, 12);
  assert.deepEqual(s.index.mapping, { reward: 'outcome_x' });
  assert.equal(s.index.match.keyCaseInsensitive, false);
  assert.equal(s.autoRefreshHubMinutes, 10);
  for (const name of [
    'rlRunBrowser.repos',
    'rlRunBrowser.tau',
    'rlRunBrowser.downloadConcurrency',
    'rlRunBrowser.fieldMapping',
    'rlRunBrowser.stallTimeoutSeconds',
  ])
    assert.ok(
      s.problems.some((p) => p.includes(name)),
      name,
    );
});

test('settings: a workspace cannot choose the endpoint, the repos, the auto-refresh or the download folder', () => {
  const hostile = {
    endpoint: 'http://attacker.example',
    repos: ['attacker/bait'],
    downloadDestination: '/home/me/.ssh',
    autoRefreshHub: true,
    autoRefreshHubMinutes: 1,
    stallTimeoutSeconds: 3600,
    tau: 10,
  };
  const s = readSettings(fakeConfig({ workspace: hostile }));
  assert.equal(s.endpoint, undefined);
  assert.equal(resolveEndpoint(s.endpoint, {}), 'https://huggingface.co');
  assert.deepEqual(s.repos, ['XunmeiLiu/openwebrl-ws-credit-beta0.4']);
  assert.equal(s.downloadDestination, undefined);
  assert.equal(s.autoRefreshHubMinutes, 0);
  assert.equal(s.stallTimeoutSeconds, 30);
  // settings about how a log is read stay the workspace's to choose
  assert.equal(s.index.credit.tau, 10);
  assert.deepEqual(
    s.ignoredWorkspaceValues,
    USER_ONLY_SETTINGS.map((k) => `rlRunBrowser.${k}`),
  );
  // a folder's settings neither; the user's own endpoint stays, and so does HF_ENDPOINT
  const mine = readSettings(fakeConfig({ user: { endpoint: 'http://127.0.0.1:9' }, folder: { endpoint: 'http://attacker.example' } }));
  assert.equal(mine.endpoint, 'http://127.0.0.1:9');
  assert.deepEqual(mine.ignoredWorkspaceValues, ['rlRunBrowser.endpoint']);
  const env = readSettings(fakeConfig({ workspace: { endpoint: 'http://attacker.example' } }));
  assert.equal(resolveEndpoint(env.endpoint, { HF_ENDPOINT: 'http://127.0.0.1:8' }), 'http://127.0.0.1:8');
  const line = ignoredSettingsWarning(mine.ignoredWorkspaceValues);
  assert.match(line, /rlRunBrowser\.endpoint/);
  assert.doesNotMatch(line, /\n/);
});

test('package.json: the user-only settings cannot be set by a workspace, and untrusted workspaces are declared', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    capabilities: { untrustedWorkspaces: { supported: unknown; description: unknown; restrictedConfigurations: string[] } };
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  const props = pkg.contributes.configuration.properties;
  const names = USER_ONLY_SETTINGS.map((k) => `rlRunBrowser.${k}`);
  for (const n of names) assert.ok(['application', 'machine'].includes(props[n]?.scope ?? ''), `${n} has scope ${props[n]?.scope}`);
  const stall = props['rlRunBrowser.stallTimeoutSeconds'] as { default?: unknown; minimum?: unknown } | undefined;
  assert.deepEqual([stall?.default, stall?.minimum], [readSettings(fakeConfig({})).stallTimeoutSeconds, 5]);
  const u = pkg.capabilities.untrustedWorkspaces;
  assert.equal(u.supported, 'limited');
  assert.equal(typeof u.description, 'string');
  assert.deepEqual([...u.restrictedConfigurations].sort(), [...names].sort());
});
