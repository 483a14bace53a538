/** The pure parts of the agent tools in VS Code: the server's launch (token in the environment only) and open_in_viewer's place. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverLaunch } from '../../src/extension/mcp/launch';
import { placeText, viewerInput, viewerLink } from '../../src/extension/mcp/viewerPlace';

test('the server launch: the editor binary as Node, roots and repos as flags, endpoint and token in the environment only', () => {
  const l = serverLaunch({
    execPath: '/opt/code/node',
    cli: '/ext/dist/cli.js',
    roots: ['/w/a', '/w/b', '/w/a'],
    repos: ['me/run'],
    endpoint: 'http://127.0.0.1:9',
    token: 'hf_secret_token_value',
  });
  assert.deepEqual(l, {
    command: '/opt/code/node',
    args: ['/ext/dist/cli.js', 'mcp', '--root', '/w/a', '--root', '/w/b', '--repo', 'me/run'],
    env: { ELECTRON_RUN_AS_NODE: '1', HF_ENDPOINT: 'http://127.0.0.1:9', HF_TOKEN: 'hf_secret_token_value' },
  });
  assert.ok(!l.args.some((a) => a.includes('hf_secret')));
  const none = serverLaunch({ execPath: 'n', cli: 'c', roots: [], repos: [], endpoint: undefined, token: undefined });
  assert.deepEqual(none.env, { ELECTRON_RUN_AS_NODE: '1' });
});

test('open_in_viewer: the input checked in one line, its place as a run link', () => {
  const abs = (p: string): string => (p.startsWith('/') ? p : `/ws/${p}`);
  const i = viewerInput({ run: 'runs/a', iteration: 3, group: 1, rollout: 2, turn: 0 });
  assert.ok(typeof i !== 'string');
  assert.deepEqual(viewerLink(i, abs), {
    run: { kind: 'local', path: '/ws/runs/a' },
    view: { kind: 'trajectories', iteration: 3, group: 1, rollout: 2, turn: 0 },
  });
  assert.equal(placeText(i), 'iteration 3, group 1, rollout 2, turn 0 of "runs/a"');
  const m = viewerInput({ run: 'hub:me/run@v2', metric: 'ws/tau_running' });
  assert.ok(typeof m !== 'string');
  assert.deepEqual(viewerLink(m, abs), {
    run: { kind: 'hub', repo: 'me/run', revision: 'v2' },
    view: { kind: 'metric', metric: 'ws/tau_running' },
  });
  const r = viewerInput({ run: '/abs/run' });
  assert.ok(typeof r !== 'string');
  assert.deepEqual(viewerLink(r, abs), { run: { kind: 'local', path: '/abs/run' }, view: { kind: 'run' } });
  assert.equal(viewerInput({ run: 'a', group: 1 }), '"group" needs "iteration"');
  assert.equal(viewerInput({ run: 'a', iteration: -1 }), '"iteration" must be a whole number >= 0');
  assert.equal(viewerInput({ run: 'a', iteration: 1.5 }), '"iteration" must be a whole number >= 0');
  assert.equal(viewerInput({ run: 'a', iteration: 1, metric: 'm' }), 'give either a metric or a trajectory place, not both');
  assert.match(viewerInput({}) as string, /"run" must be/);
  assert.match(viewerInput(null) as string, /must be an object/);
});
