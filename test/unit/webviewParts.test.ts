import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMetricsMessage } from '../../src/shared/protocol/metrics';
import { parseReportMessage } from '../../src/shared/protocol/report';
import { parseNavigate, parseTrajectoriesMessage } from '../../src/shared/protocol/trajectories';
import { buildHtml, scriptJson } from '../../src/extension/panels/html';
import { jumpFor } from '../../src/extension/report/jumpTable';
import { decimate } from '../../src/extension/metrics/decimate';
import { smooth } from '../../src/shared/smoothing';
import { flatRange, tickDecimals, tickLabel } from '../../src/shared/ticks';
import { Flag } from '../../src/shared/shapes';

test("the browser checks the host's navigate message: a query, a bounded label or none, a trajectory or none", () => {
  const query = {
    filter: { iterationMin: 1, iterationMax: 1, flags: Flag.SignFlip },
    sort: [{ key: 'signFlips' as const, descending: true }],
  };
  const select = { iteration: 1, group: 0, rollout: 2 };
  const m = { type: 'trajectories/navigate', query, label: 'ws/sign_flip_rate @ 1: turns that flipped sign', select };
  assert.deepEqual(parseNavigate(m), m);
  assert.deepEqual(parseNavigate({ ...m, label: null, select: null }), { ...m, label: null, select: null });
  assert.equal(parseNavigate({ ...m, type: 'trajectories/page' }), undefined, 'another type');
  assert.equal(parseNavigate({ ...m, query: { filter: {}, sort: [{ key: 'bogus' }] } }), undefined, 'a sort key that is no column');
  assert.equal(parseNavigate({ ...m, query: { filter: { reward: 'maybe' }, sort: [] } }), undefined);
  assert.equal(parseNavigate({ ...m, label: 'x'.repeat(501) }), undefined, 'a label too long to show');
  assert.equal(parseNavigate({ ...m, label: 3 }), undefined);
  assert.equal(parseNavigate({ ...m, select: { iteration: 1, group: -1, rollout: 0 } }), undefined);
  assert.equal(parseNavigate({ type: 'trajectories/navigate', query, label: null }), undefined, 'select must be said');
});

test('a page query says whether it is a new query (the host drops a jump label then) or one more page', () => {
  const q = { type: 'trajectories/query', query: { filter: {}, sort: [] }, offset: 0, limit: 10 };
  assert.deepEqual(parseTrajectoriesMessage({ ...q, changed: true }), { ...q, changed: true });
  assert.equal(parseTrajectoriesMessage(q), undefined, 'without changed');
  assert.equal(parseTrajectoriesMessage({ ...q, changed: 'yes' }), undefined);
});

test('messages from a webview are validated; anything else is dropped', () => {
  assert.deepEqual(parseMetricsMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseMetricsMessage({ type: 'metrics/openPoint', metric: 'ws/c_mean', iteration: 12 }), {
    type: 'metrics/openPoint',
    metric: 'ws/c_mean',
    iteration: 12,
  });
  assert.equal(parseMetricsMessage({ type: 'metrics/openPoint', metric: 'x', iteration: 1.5 }), undefined);
  assert.deepEqual(parseMetricsMessage({ type: 'metrics/width', width: 1e9 }), { type: 'metrics/width', width: 10_000 });
  assert.equal(parseMetricsMessage({ type: 'metrics/width', width: 0 }), undefined);
  assert.equal(
    parseTrajectoriesMessage({ type: 'trajectories/query', query: { filter: {}, sort: [] }, offset: 0, limit: 100000 }),
    undefined,
  );
  assert.equal(
    parseTrajectoriesMessage({ type: 'trajectories/query', query: { filter: { reward: 'maybe' }, sort: [] }, offset: 0, limit: 10 }),
    undefined,
  );
  assert.equal(
    parseTrajectoriesMessage({ type: 'trajectories/query', query: { filter: { text: 'x'.repeat(501) }, sort: [] }, offset: 0, limit: 10 }),
    undefined,
  );
  assert.ok(
    parseTrajectoriesMessage({
      type: 'trajectories/query',
      query: { filter: { iterationMin: 3, text: 'click', flags: 1 }, sort: [{ key: 'meanC', descending: true }] },
      offset: 200,
      limit: 200,
      changed: false,
    }),
  );
  assert.equal(
    parseTrajectoriesMessage({ type: 'trajectories/query', query: { filter: {}, sort: [{ key: 'constructor' }] }, offset: 0, limit: 10 }),
    undefined,
    'a sort key that is no column',
  );
  assert.equal(parseTrajectoriesMessage({ type: 'trajectories/open', row: -1 }), undefined);
  assert.equal(parseTrajectoriesMessage({ type: 'eval', code: 'x' }), undefined);
  assert.equal(parseTrajectoriesMessage('ready'), undefined);
  assert.deepEqual(parseMetricsMessage({ type: 'metrics/pin', pinned: ['ws/c_mean'] }), { type: 'metrics/pin', pinned: ['ws/c_mean'] });
  assert.equal(parseMetricsMessage({ type: 'metrics/pin', pinned: [1] }), undefined);
  assert.equal(parseMetricsMessage(null), undefined);
  assert.deepEqual(parseReportMessage({ type: 'report/openIteration', iteration: 4, gate: true }), {
    type: 'report/openIteration',
    iteration: 4,
    gate: true,
  });
  assert.deepEqual(parseReportMessage({ type: 'openTrajectory', iteration: 1, group: 2, rollout: 3, extra: 'x' }), {
    type: 'openTrajectory',
    iteration: 1,
    group: 2,
    rollout: 3,
  });
  assert.equal(parseReportMessage({ type: 'openTrajectory', iteration: 1, group: 2 }), undefined);
});

test('each panel accepts only its own messages', () => {
  assert.equal(parseReportMessage({ type: 'trajectories/reveal', row: 1 }), undefined);
  assert.equal(parseMetricsMessage({ type: 'openTrajectory', iteration: 1, group: 2, rollout: 3 }), undefined);
  assert.equal(parseMetricsMessage({ type: 'report/openIteration', iteration: 4, gate: true }), undefined);
  assert.equal(parseTrajectoriesMessage({ type: 'metrics/pin', pinned: [] }), undefined);
  assert.ok(parseTrajectoriesMessage({ type: 'trajectories/reveal', row: 1 }));
  assert.ok(parseTrajectoriesMessage({ type: 'openMetrics' }));
});

test('the HTML builder: strict CSP, a fresh nonce on every script, state that cannot close its script', () => {
  const parts = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    scriptUri: 'https://x/dist/webview/metrics.js',
    styleUris: ['https://x/media/webview.css'],
    title: '<b>t</b>',
    initialState: { kind: 'metrics', root: '</script><script>alert(1)</script>' },
  };
  const a = buildHtml(parts);
  const b = buildHtml(parts);
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(a)![1]!.replace(/&#39;/g, "'");
  assert.match(
    csp,
    /^default-src 'none'; script-src 'nonce-[A-Za-z0-9]{16,}'; style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net; font-src /,
  );
  assert.ok(!/unsafe-inline|unsafe-eval/.test(csp));
  const nonce = /nonce-([A-Za-z0-9]+)/.exec(csp)![1];
  const scripts = a.match(/<script\b[^>]*>/g)!;
  assert.equal(scripts.length, 2);
  for (const s of scripts) assert.ok(s.includes(`nonce="${nonce}"`), s);
  assert.notEqual(/nonce-([A-Za-z0-9]+)/.exec(b)![1], nonce, 'a fresh nonce each render');
  assert.ok(!a.includes('</script><script>alert'), 'embedded state is escaped');
  assert.ok(a.includes('<title>&lt;b&gt;t&lt;/b&gt;</title>'));
  assert.deepEqual(JSON.parse(scriptJson({ s: '</script>\u2028' })), { s: '</script>\u2028' });
});

test('the metric -> filter table', () => {
  assert.equal(jumpFor('ws/sign_flip_rate', 7).spec.filter.flags, Flag.SignFlip);
  assert.deepEqual(jumpFor('ws/sign_flip_rate', 7).spec.filter.iterationMin, 7);
  assert.equal(jumpFor('ws/executed_is_argmax', 1).spec.filter.flags, Flag.Argmax);
  assert.deepEqual(jumpFor('ws/c_mean', 2).spec.sort, [{ key: 'meanC', descending: true }]);
  assert.equal(jumpFor('ws/gate_mean_diff', 3).spec.filter.gate, true);
  assert.deepEqual(jumpFor('ws/reward_mean', 4).spec.sort, [{ key: 'reward' }]);
  assert.equal(jumpFor('ws/fallback_rate', 5).spec.filter.flags, Flag.Fallback);
  assert.deepEqual(jumpFor('perf/step_time_s', 6).spec.sort, [{ key: 'reward', descending: true }]);
  assert.match(jumpFor('ws/c_mean', 2).label, /ws\/c_mean @ 2: sorted by mean c/);
});

test('decimation keeps the extremes, the ends and the gaps', () => {
  const n = 20000;
  const xs = Array.from({ length: n }, (_, i) => i);
  const ys = Float64Array.from(xs, (x) => Math.sin(x / 500) + (x === 12345 ? 10 : 0));
  ys[5000] = NaN;
  const d = decimate(xs, ys, 400);
  assert.ok(d.x.length <= 420 && d.x.length >= 380, String(d.x.length));
  assert.equal(d.x[0], 0);
  assert.equal(d.x[d.x.length - 1], n - 1);
  assert.ok(d.y.includes(Math.sin(12345 / 500) + 10), 'the spike survives');
  assert.ok(
    d.y.some((v) => Number.isNaN(v)),
    'the gap survives',
  );
  const short = decimate([1, 2, 3], [1, NaN, 3], 400);
  assert.deepEqual(short.x, [1, 2, 3]);
});

test('smoothing: debiased EMA; gaps stay gaps; weight 0 is the raw series', () => {
  assert.deepEqual(smooth([1, 2, 3], 0), [1, 2, 3]);
  // debiased: a constant stays exactly constant (the ratio form gave 0.39999999999999997)
  for (const [v, w] of [
    [2, 0.9],
    [0.4, 0.6],
    [0.1, 0.99],
    [20, 0.3],
  ] as const)
    assert.deepEqual(smooth(new Array(45).fill(v), w), new Array(45).fill(v), `${v} at ${w}`);
  const g = smooth([1, NaN, 3], 0.5);
  assert.ok(Number.isNaN(g[1]!));
  assert.ok(Math.abs(g[2]! - (0.5 * 0.5 * 1 + 0.5 * 3) / (1 - 0.25)) < 1e-12);
});

test('a series constant up to float noise gets a flat range around it; real variation and empty series scale themselves', () => {
  assert.deepEqual(flatRange([0.4, 0.39999999999999997, 0.4, null]), { min: 0.4 * 0.95, max: 0.4 * 1.05 });
  assert.deepEqual(flatRange([0, 0, null]), { min: -1, max: 1 });
  // a rate always 0 (a behaviour tag no trajectory has) starts at its floor
  assert.deepEqual(flatRange([0, 0, null], 0), { min: 0, max: 1 });
  assert.deepEqual(flatRange([0.4, 0.4], 0), { min: 0.4 * 0.95, max: 0.4 * 1.05 });
  assert.deepEqual(flatRange([-20, -20]), { min: -21, max: -19 });
  assert.equal(flatRange([0.4, 0.4000001]), undefined);
  assert.equal(flatRange([1e-12, 2e-12]), undefined, 'tiny values that really differ');
  assert.equal(flatRange([null, NaN]), undefined);
  assert.equal(flatRange([]), undefined);
});

test('tick labels: the fewest decimals that write every tick exactly, exponents at the extremes', () => {
  const labels = (vs: number[]): string[] => vs.map((v) => tickLabel(v, vs));
  assert.deepEqual(labels([0, 10, 20, 30, 40, 50]), ['0', '10', '20', '30', '40', '50']);
  assert.deepEqual(labels([-0.05, 0, 0.05]), ['-0.05', '0', '0.05']);
  // a step of 0.25 needs two decimals on every tick, not one
  assert.deepEqual(labels([0, 0.25, 0.5, 0.75, 1]), ['0', '0.25', '0.50', '0.75', '1.00']);
  assert.deepEqual(labels([-1, -0.5, 0, 0.5, 1]), ['-1.0', '-0.5', '0', '0.5', '1.0']);
  // floating-point noise in tick values does not add decimals
  assert.deepEqual(labels([0.1, 0.2, 0.30000000000000004]), ['0.1', '0.2', '0.3']);
  assert.deepEqual(labels([1_200_000, 1_400_000, 1_600_000]), ['1.2e+6', '1.4e+6', '1.6e+6']);
  assert.deepEqual(labels([0.00012, 0.00014, 0.00016]), ['1.2e-4', '1.4e-4', '1.6e-4']);
  assert.deepEqual(labels([0.0005, 0.001, 0.0015]), ['0.0005', '0.0010', '0.0015']);
  assert.equal(tickDecimals([2, 4, 6]), 0);
});

test('no line of the webview code is longer than 140 characters', () => {
  const long: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts'))
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach((l, i) => {
            if (l.length > 140) long.push(`${p}:${i + 1} (${l.length})`);
          });
    }
  };
  walk('webview');
  assert.deepEqual(long, []);
});
