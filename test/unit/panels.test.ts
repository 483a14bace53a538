/**
 * The panel classes over a stand-in for the `vscode` module: each kind answers `ready`
 * with its data, accepts only its own messages, jumps between panels, and the manager
 * restores a panel from its saved state. (The real VS Code runs them in the e2e suite.)
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';

interface FakePanel {
  viewType: string;
  title: string;
  posted: { type: string; [k: string]: unknown }[];
  send: (m: unknown) => Promise<void>;
  revealed: number;
  disposed: boolean;
  webview: { html: string };
}

const created: FakePanel[] = [];
const warned: string[] = [];

function fakePanel(viewType: string): FakePanel & Record<string, unknown> {
  const onMessage: ((m: unknown) => void)[] = [];
  const onDispose: (() => void)[] = [];
  const p = {
    viewType,
    title: '',
    iconPath: undefined,
    posted: [] as FakePanel['posted'],
    revealed: 0,
    disposed: false,
    webview: {
      html: '',
      options: {},
      cspSource: 'vscode-resource:',
      asWebviewUri: (u: { path: string }) => ({ toString: () => `vscode-resource:${u.path}` }),
      onDidReceiveMessage: (fn: (m: unknown) => void) => (
        onMessage.push(fn),
        { dispose: () => onMessage.splice(onMessage.indexOf(fn), 1) }
      ),
      postMessage: async (m: FakePanel['posted'][number]) => (p.posted.push(m), true),
    },
    onDidDispose: (fn: () => void) => (onDispose.push(fn), { dispose: () => undefined }),
    visible: true,
    onDidChangeViewState: () => ({ dispose: () => undefined }),
    reveal: () => void p.revealed++,
    dispose: () => {
      p.disposed = true;
      for (const fn of onDispose) fn();
    },
    send: async (m: unknown) => {
      for (const fn of [...onMessage]) fn(m);
      await new Promise((r) => setTimeout(r, 20));
    },
  };
  return p;
}

const fakeVscode = {
  Uri: { joinPath: (u: { path: string }, ...parts: string[]) => ({ path: join(u.path, ...parts) }) },
  ViewColumn: { Active: -1 },
  // the report reads the baseline setting (none set here) and follows its changes
  workspace: {
    getConfiguration: () => ({ get: () => undefined }),
    onDidChangeConfiguration: () => ({ dispose: () => undefined }),
  },
  window: {
    showWarningMessage: async (m: string) => void warned.push(m),
    createWebviewPanel: (viewType: string) => {
      const p = fakePanel(viewType);
      created.push(p);
      return p;
    },
  },
};

// the panel code is loaded after `vscode` resolves to the stand-in
const load = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
const realLoad = load._load;
load._load = (req: string, ...rest: unknown[]) => (req === 'vscode' ? fakeVscode : realLoad(req, ...rest));

async function setup() {
  const { PanelManager } = await import('../../src/extension/panels/panelManager');
  const dir = join(tempDir(), 'run');
  writeDemo(dir, { trajectories: 480, hubRepo: false });
  const run = (await Run.open(dir))!;
  await run.update();
  const root = run.location.root;
  const memento = new Map<string, unknown>();
  const ctx = {
    extensionUri: { path: '/ext' },
    workspaceState: {
      get: (k: string, d?: unknown) => (memento.has(k) ? memento.get(k) : d),
      update: async (k: string, v: unknown) => void memento.set(k, v),
    },
  };
  const live = { run, progress: undefined, iterations: () => new Map() };
  const runs = {
    get: (r: string) => (r === root ? live : undefined),
    onDidChange: () => ({ dispose: () => undefined }),
    scan: async () => undefined,
    add: async () => live,
    ensure: async (r: string) => (r === root ? live : undefined),
  };
  const revealed: number[] = [];
  const logged: string[] = [];
  const mgr = new PanelManager(
    ctx as never,
    runs as never,
    async (_r, row) => {
      // a row past the log's end stands for a tree that cannot show it
      if (row >= 480) throw new Error(`no row ${row} in the tree`);
      revealed.push(row);
    },
    (line) => void logged.push(line),
  );
  return { mgr, root, memento, revealed, PanelManager, runs, logged };
}

const last = (p: FakePanel, type: string) => [...p.posted].reverse().find((m) => m.type === type);

/** Polls (up to 10 s) until `probe` finds something. */
async function until<T>(probe: () => T | undefined): Promise<T | undefined> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const hit = probe();
    if (hit !== undefined) return hit;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

/** Sends a message and waits (up to 10 s) for the first answer of `type` posted after it: the host reads the log asynchronously. */
async function reply(p: FakePanel, m: unknown, type: string): Promise<{ type: string } | undefined> {
  const before = p.posted.length;
  await p.send(m);
  return until(() => p.posted.slice(before).find((x) => x.type === type));
}

test('each panel answers ready with its data and only its own messages; jumps open the browser', async () => {
  const { mgr, root, revealed } = await setup();
  created.length = 0;
  await mgr.open('metrics', root);
  const metrics = created[0]!;
  assert.equal(metrics.viewType, 'rlRunBrowser.metrics');
  assert.match(metrics.webview.html, /metrics\.js/);
  await metrics.send({ type: 'metrics/width', width: 300 });
  const data = (await reply(metrics, { type: 'ready' }, 'metrics/data')) as { series: { x: number[] }[] } | undefined;
  assert.ok(data && data.series.length > 0);
  await metrics.send({ type: 'trajectories/reveal', row: 1 });
  assert.deepEqual(revealed, [], "the dashboard does not take the browser's messages");

  await metrics.send({ type: 'metrics/openPoint', metric: 'ws/sign_flip_rate', iteration: 1 });
  const browser = created[1]!;
  assert.equal(browser.viewType, 'rlRunBrowser.trajectories');
  const pageMsg = (await reply(browser, { type: 'ready' }, 'trajectories/page')) as
    { query: { filter: { flags?: number } }; label: string; total: number } | undefined;
  assert.ok(pageMsg);
  assert.equal(pageMsg.query.filter.flags, 1);
  assert.match(pageMsg.label, /sign_flip_rate @ 1/);

  const detail = (await reply(browser, { type: 'trajectories/open', row: 3 }, 'trajectories/detail')) as
    { detail: { row: number; turns: { cMismatch: boolean }[] } } | undefined;
  assert.equal(detail?.detail.row, 3);
  assert.equal(typeof detail?.detail.turns[0]?.cMismatch, 'boolean');
  await browser.send({ type: 'trajectories/reveal', row: 3 });
  assert.deepEqual(revealed, [3]);

  await mgr.open('report', root);
  const report = created[2]!;
  const r = (await reply(report, { type: 'ready' }, 'report/data')) as { report: { figures: { trajectories: number } } } | undefined;
  assert.equal(r?.report.figures.trajectories, 480);
  const before = browser.posted.length;
  await report.send({ type: 'report/openIteration', iteration: 2, gate: false });
  const jumped = (await until(() => browser.posted.slice(before).find((m) => m.type === 'trajectories/page'))) as
    { label: string } | undefined;
  assert.equal(created.length, 3, 'the open browser is reused');
  assert.equal(jumped?.label, 'iteration 2');
  // the open browser is told it moved, in so many words, before its page
  const navAt = browser.posted.findIndex((m, i) => i >= before && m.type === 'trajectories/navigate');
  const nav = browser.posted[navAt] as { query: { filter: { iterationMin?: number } }; label: string; select: null } | undefined;
  assert.deepEqual(nav && { it: nav.query.filter.iterationMin, label: nav.label, select: nav.select }, {
    it: 2,
    label: 'iteration 2',
    select: null,
  });
  assert.ok(navAt < browser.posted.findIndex((m, i) => i >= before && m.type === 'trajectories/page'), 'navigate comes first');
  // one more page of the same query keeps the label; the page's own new query drops it
  const q = { filter: { iterationMin: 2, iterationMax: 2 }, sort: [{ key: 'reward' }] };
  const more = (await reply(
    browser,
    { type: 'trajectories/query', query: q, offset: 0, limit: 50, changed: false },
    'trajectories/page',
  )) as { label: string | null } | undefined;
  assert.equal(more?.label, 'iteration 2');
  const own = (await reply(browser, { type: 'trajectories/query', query: q, offset: 0, limit: 50, changed: true }, 'trajectories/page')) as
    { label: string | null } | undefined;
  assert.equal(own?.label, null);
  // the detail's place in the table names the query it answers (the page may have set another since)
  const placed = (await until(() => last(browser, 'trajectories/select'))) as { query: unknown; row: number } | undefined;
  assert.deepEqual(placed && { query: placed.query, row: placed.row }, { query: q, row: 3 });

  await mgr.open('metrics', root);
  assert.equal(created.length, 3, 'one dashboard per run');
  assert.ok(metrics.revealed > 0);
  mgr.dispose();
  assert.ok(created.every((p) => p.disposed));
});

test("a page's message whose answer fails is one line in the output channel, and the panel goes on", async () => {
  const { mgr, root, revealed, logged } = await setup();
  created.length = 0;
  await mgr.open('trajectories', root);
  const browser = created[0]!;
  await reply(browser, { type: 'ready' }, 'trajectories/page');
  await browser.send({ type: 'trajectories/reveal', row: 999 });
  const line = await until(() => logged.find((l) => l.includes('no row 999')));
  assert.equal(line, `${browser.title}: cannot answer the page's trajectories/reveal: no row 999 in the tree`);
  await browser.send({ type: 'trajectories/reveal', row: 3 });
  assert.deepEqual(revealed, [3]);
  mgr.dispose();
});

test('the browser shows the trajectory asked for last, when one asked before it is read after it', async () => {
  const { mgr, root, runs } = await setup();
  created.length = 0;
  await mgr.open('trajectories', root);
  const browser = created[0]!;
  await reply(browser, { type: 'ready' }, 'trajectories/page');
  // row 3's record comes back late (a slow disk, a long record): row 7 is asked for meanwhile
  const idx = runs.get(root)!.run.credit!;
  const read = idx.read.bind(idx);
  idx.read = async (row: number) => {
    if (row === 3) await new Promise((r) => setTimeout(r, 300));
    return read(row);
  };
  const before = browser.posted.length;
  await browser.send({ type: 'trajectories/open', row: 3 });
  await browser.send({ type: 'trajectories/open', row: 7 });
  await new Promise((r) => setTimeout(r, 600));
  const shown = browser.posted
    .slice(before)
    .filter((m) => m.type === 'trajectories/detail')
    .map((m) => (m as unknown as { detail: { row: number } }).detail.row);
  assert.deepEqual(shown, [7], 'only the trajectory asked for last is shown');
  mgr.dispose();
});

test('a panel pushes one at a time: asked while one runs, one more push follows it, with the state then', async () => {
  const { PanelHost } = await import('../../src/extension/panels/panelHost');
  type Probe = { type: string; n?: number; x?: number };
  class ProbePanel extends PanelHost<Probe, Probe> {
    x = 0;
    running = 0;
    most = 0;
    started = 0;
    protected async onMessage(): Promise<void> {}
    protected async push(): Promise<void> {
      const n = ++this.started;
      this.most = Math.max(this.most, ++this.running);
      const x = this.x;
      // the first push reads slowly (a run's index, a Hub log): the later ones at once
      await new Promise((r) => setTimeout(r, n === 1 ? 200 : 5));
      this.running--;
      this.post({ type: 'probe', n, x });
    }
    show(x: number): Promise<void> {
      this.x = x;
      return this.refresh();
    }
  }
  const page = fakePanel('probe');
  const site = {
    deps: {
      extensionUri: { path: '/ext' },
      runs: { get: () => undefined, onDidChange: () => ({ dispose: () => undefined }) },
      log: () => undefined,
    },
    remember: () => undefined,
    gone: () => undefined,
  };
  const p = new ProbePanel(page as never, { kind: 'metrics', root: '/r' } as never, site as never, (v) => v as Probe);
  const first = p.show(1);
  await new Promise((r) => setTimeout(r, 20));
  const asked = [p.show(2), p.show(3)];
  await Promise.all([first, ...asked]);
  assert.deepEqual(
    page.posted.filter((m) => m.type === 'probe'),
    [
      { type: 'probe', n: 1, x: 1 },
      { type: 'probe', n: 2, x: 3 },
    ],
    'the first push, then one more with the state last asked',
  );
  assert.equal(p.most, 1, 'never two pushes at once');
  p.dispose();
});

test('the serializer restores a panel from its saved state, and drops one it cannot place', async () => {
  const { mgr, root } = await setup();
  const restored = fakePanel('rlRunBrowser.trajectories');
  await mgr.deserializeWebviewPanel(restored as never, { kind: 'trajectories', root, query: { filter: { group: 2 }, sort: [] } });
  assert.ok(!restored.disposed);
  await restored.send({ type: 'ready' });
  const pageMsg = last(restored, 'trajectories/page') as { query: { filter: { group?: number } } } | undefined;
  assert.equal(pageMsg?.query.filter.group, 2);
  const bad = fakePanel('rlRunBrowser.report');
  await mgr.deserializeWebviewPanel(bad as never, { kind: 'metrics', root });
  assert.ok(bad.disposed, 'a state of another kind is refused');
  mgr.dispose();
});

test('the comparison panel is a PanelHost: it answers ready with its figures and run A’s data problems, and a reload restores it', async () => {
  const { mgr, root, memento } = await setup();
  created.length = 0;
  mgr.openCompare(root, root);
  const panel = created[0]!;
  assert.match(panel.webview.html, /compare\.js/);
  assert.match(panel.webview.html, /compare\.css/);
  const data = (await reply(panel, { type: 'ready' }, 'compare/data')) as { view: { a: { root: string } } } | undefined;
  assert.equal(data?.view.a.root, root);
  assert.equal(panel.title, 'Compare: run ↔ run', 'the tab names both runs');
  // the charts' series only when the page asks (after its first paint), then after every computation
  assert.equal(
    panel.posted.find((m) => m.type === 'compare/charts'),
    undefined,
  );
  const charts = (await reply(panel, { type: 'compare/queryCharts' }, 'compare/charts')) as
    { charts: { perIteration: unknown[]; credit: { a: { gate: unknown[] } } } } | undefined;
  assert.ok(charts && charts.charts.perIteration.length > 0 && charts.charts.credit.a.gate.length > 0);
  // the banner of run A's data problems, as on every panel of the run (the comparison had none before PanelHost)
  assert.ok(await until(() => panel.posted.find((m) => m.type === 'dataProblems')));
  // the host remembers the pair for a reload that lost the page's own state
  assert.deepEqual((memento.get('panel:compare') as { rootB?: string } | undefined)?.rootB, root);
  const restored = fakePanel('rlRunBrowser.compare');
  await mgr.deserializeWebviewPanel(restored as never, undefined);
  assert.ok(!restored.disposed);
  assert.ok(await reply(restored, { type: 'ready' }, 'compare/data'));
  mgr.dispose();
  assert.ok(panel.disposed && restored.disposed);
});

test('one registry: the comparison opens the task view and the browser the side-by-side view through the navigator, and every kind is restored by view type', async () => {
  const { mgr, root } = await setup();
  created.length = 0;
  mgr.openCompare(root, root);
  const compare = created[0]!;
  await compare.send({ type: 'compare/openTask', task: 'task-0' });
  const task = created.find((p) => p.viewType === 'rlRunBrowser.task');
  assert.ok(task, 'the task view opened (no command id, no getCommands probe)');
  assert.equal(task.title, 'Task: task-0');
  await compare.send({ type: 'compare/openTask', task: 'task-0' });
  assert.equal(created.filter((p) => p.viewType === 'rlRunBrowser.task').length, 1, 'one task view per task and runs: revealed again');
  assert.ok(task.revealed > 0);
  // another task of the same runs: the open task view shows it (no new webview), and its page gets that task's view
  assert.ok(await reply(task, { type: 'ready' }, 'task/view'));
  const revealed = task.revealed;
  const before = task.posted.length;
  await compare.send({ type: 'compare/openTask', task: 'task-1' });
  assert.equal(created.filter((p) => p.viewType === 'rlRunBrowser.task').length, 1, 'the open task view is reused for another task');
  assert.equal(task.title, 'Task: task-1');
  assert.ok(task.revealed > revealed);
  const next = await until(() => task.posted.slice(before).find((m) => m.type === 'task/view'));
  assert.equal((next as { view?: { task?: string } } | undefined)?.view?.task, 'task-1');
  await compare.send({ type: 'compare/openTask', task: 'task-1' });
  assert.equal(created.filter((p) => p.viewType === 'rlRunBrowser.task').length, 1, 'found again under its new task');

  await mgr.open('trajectories', root);
  const browser = created.find((p) => p.viewType === 'rlRunBrowser.trajectories')!;
  const a = { iteration: 1, group: 0, rollout: 0 };
  const b = { iteration: 1, group: 0, rollout: 1 };
  await browser.send({ type: 'trajectories/compare', a, b });
  const pair = created.find((p) => p.viewType === 'rlRunBrowser.sideBySide');
  assert.equal(pair?.title, 'Side by side: 1/0/0 | 1/0/1');

  const restoredTask = fakePanel('rlRunBrowser.task');
  await mgr.deserializeWebviewPanel(restoredTask as never, { kind: 'task', root, task: 'task-1', runs: [root] });
  assert.ok(!restoredTask.disposed);
  assert.ok(await reply(restoredTask, { type: 'ready' }, 'task/view'));
  const badPair = fakePanel('rlRunBrowser.sideBySide');
  await mgr.deserializeWebviewPanel(badPair as never, { kind: 'sideBySide', root });
  assert.ok(badPair.disposed, 'a state that does not check closes the panel');
  const stranger = fakePanel('rlRunBrowser.somethingElse');
  await mgr.deserializeWebviewPanel(stranger as never, { kind: 'metrics', root });
  assert.ok(stranger.disposed);
  mgr.dispose();
  assert.ok(created.every((p) => p.disposed) && restoredTask.disposed);
});

test('the task view draws the task shown last, with its own instruction, when two are asked for in a row', async () => {
  const { mgr, root, runs } = await setup();
  created.length = 0;
  const log = readFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { task_id: string; instruction: string | null });
  const [a, b, c] = [...new Set(log.map((r) => r.task_id))];
  assert.ok(a && b && c, 'three tasks in the demo');
  mgr.openCompare(root, root);
  const compare = created[0]!;
  await compare.send({ type: 'compare/openTask', task: a });
  const task = created.find((p) => p.viewType === 'rlRunBrowser.task')!;
  assert.ok(await reply(task, { type: 'ready' }, 'task/view'));
  // task b's first record comes back late: task c is asked for meanwhile, and read at once
  const idx = runs.get(root)!.run.credit!;
  const read = idx.read.bind(idx);
  let slow = true;
  idx.read = async (row: number) => {
    if (slow) await new Promise((r) => setTimeout(r, 300));
    return read(row);
  };
  const before = task.posted.length;
  await compare.send({ type: 'compare/openTask', task: b });
  slow = false;
  await compare.send({ type: 'compare/openTask', task: c });
  await new Promise((r) => setTimeout(r, 600));
  const views = task.posted
    .slice(before)
    .filter((m) => m.type === 'task/view')
    .map((m) => (m as unknown as { view: { task: string; instruction: string | null } }).view);
  const own = log.find((r) => r.task_id === c)!.instruction;
  assert.deepEqual(views, [{ task: c, instruction: own === c ? null : own, runs: (views[0] as { runs?: unknown } | undefined)?.runs }]);
  assert.equal(task.title, `Task: ${c}`);
  mgr.dispose();
});

test('a restored dashboard takes its overlaid runs from the fresher of the page’s and the host’s copy, and nothing of another run’s', async () => {
  const { mgr, root, memento } = await setup();
  const other = join(tempDir(), 'other-run');
  const overlaid = async (saved: unknown): Promise<unknown> => {
    const p = fakePanel('rlRunBrowser.metrics');
    await mgr.deserializeWebviewPanel(p as never, saved);
    const data = (await reply(p, { type: 'ready' }, 'metrics/data')) as { overlay?: { root: string }[] } | undefined;
    (p.dispose as () => void)();
    return data?.overlay?.map((o) => o.root);
  };
  // the host added a run after the page last saved (the workbench stored the host's copy first)
  memento.set('panel:metrics', { kind: 'metrics', root, overlay: [{ root: other, color: 1 }], overlayAt: 2 });
  assert.deepEqual(await overlaid({ kind: 'metrics', root, overlay: [], overlayAt: 1 }), [other]);
  // the page saved a removal the host's stored copy has not caught up with
  assert.deepEqual(await overlaid({ kind: 'metrics', root, overlay: [], overlayAt: 3 }), []);
  // the host's copy of another run's dashboard lends this one nothing
  memento.set('panel:metrics', { kind: 'metrics', root: other, overlay: [{ root, color: 1 }], overlayAt: 9 });
  assert.deepEqual(await overlaid({ kind: 'metrics', root, overlayAt: 1 }), []);
  mgr.dispose();
});

test('a visible panel whose page never says ready gets its html again after 10 s, then a new webview; one that says ready does not', async () => {
  const { mgr, root, logged } = await setup();
  created.length = 0;
  warned.length = 0;
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    await mgr.open('report', root);
    const blank = created[0]!;
    const first = blank.webview.html;
    mock.timers.tick(9_999);
    assert.equal(blank.webview.html, first);
    assert.deepEqual(logged, []);
    mock.timers.tick(1);
    const second = blank.webview.html;
    assert.notEqual(second, first, 'the html given again (its nonce is new, so the webview loads it)');
    assert.match(second, /report\.js/);
    assert.match(logged[0] ?? '', /^Run report: .*did not say it was ready in 10 s; loading it again \(1 of 1\)$/);
    // still blank: the same panel in a new webview (a new frame), the blank one closed
    mock.timers.tick(10_000);
    assert.equal(created.length, 2, 'a new webview');
    assert.equal(blank.disposed, true);
    const again = created[1]!;
    assert.equal(again.viewType, 'rlRunBrowser.report');
    assert.match(again.webview.html, /report\.js/);
    assert.match(logged[1] ?? '', /stayed blank after 1 reload; opening it in a new webview$/);
    assert.equal(mgr.find('report', root)?.panel, again as never, 'the new webview is the run’s report panel');
    // blank in the new webview too: one more reload, then the user is told (no third webview)
    mock.timers.tick(10_000);
    mock.timers.tick(10_000);
    assert.equal(created.length, 2);
    assert.match(logged.at(-1) ?? '', /stayed blank in a new webview too$/);
    await new Promise((r) => setImmediate(r));
    assert.match(warned[0] ?? '', /did not load/);
  } finally {
    mock.timers.reset();
  }
  const shown = created.length;
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    await mgr.open('metrics', root);
    const ok = created[shown]!;
    const html = ok.webview.html;
    // the page says ready (the host answers after its own async reads; the watch stops at once)
    void ok.send({ type: 'ready' });
    mock.timers.tick(30_000);
    assert.equal(ok.webview.html, html);
  } finally {
    mock.timers.reset();
  }
});
