/**
 * Time to first paint of the webviews in headless Chromium, on a page that loads the
 * built bundle with a stub of the VS Code API (not VS Code itself, so it is cheap):
 * the dashboard with 45 metrics x 2,000 and x 20,000 iterations (series decimated by the
 * host code, as the extension sends them) and the trajectory table with 500,000 rows.
 * The baseline is the same page with no data, measured in the same run.
 */
import { mkdtempSync, writeFileSync, copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { seriesViews } from '../src/extension/metrics/seriesViews';
import { rowView } from '../src/extension/trajectories/trajectoryViews';
import { tableOf } from '../src/core/log/metricsIndex';
import type { MetricsTable } from '../src/core/log/metricsIndex';
import type { PanelState } from '../src/shared/protocol';
import type { MetricsHostMessage } from '../src/shared/protocol/metrics';
import type { TrajectoriesHostMessage } from '../src/shared/protocol/trajectories';

type HostMessage = MetricsHostMessage | TrajectoriesHostMessage;
import { recordResults } from './common';

function metricsTable(iterations: number, metrics: number): MetricsTable {
  const its = Array.from({ length: iterations }, (_, i) => i);
  return tableOf(
    its,
    Array.from({ length: metrics }, (_, m) => ({
      name: `${m < 30 ? 'ws' : m < 38 ? 'train' : 'perf'}/metric_${m}`,
      values: Float64Array.from(its, (i) => Math.sin(i / 50 + m) + (i % 97 === 0 ? 0.5 : 0)),
    })),
  );
}

/**
 * The page: the built bundle with a stub of the VS Code API. The host's answer to `ready`
 * (or to the first query) is a JSON file next to the page, read while the page loads (a
 * host that has its answer ready) and posted as a message once the page asks.
 */
function page(kind: string, state: PanelState, dataFile: string, onReady: 'all' | 'query'): string {
  const stub = `
    (() => {
      let data, ready = false;
      const send = () => setTimeout(() => { for (const d of data) window.postMessage(d, '*'); }, 0);
      const x = new XMLHttpRequest();
      x.open('GET', ${JSON.stringify(dataFile)});
      x.onload = () => { data = JSON.parse(x.responseText); if (ready) send(); };
      x.send();
      window.acquireVsCodeApi = () => ({
        getState: () => undefined, setState: () => {},
        postMessage: (m) => {
          if (ready || !(m.type === 'ready' || (${JSON.stringify(onReady)} === 'query' && m.type === 'trajectories/query'))) return;
          ready = true;
          if (data) send();
        },
      });
    })();`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8">${kind === 'metrics' ? '<link rel="stylesheet" href="codicon.css">' : ''}<link rel="stylesheet" href="webview.css"></head>
<body><div id="app"></div><script type="application/json" id="initial-state">${JSON.stringify(state)}</script>
<script>${stub}</script><script src="${kind}.js"></script></body></html>`;
}

const RUNS = 15;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rlrb-wv-'));
  for (const f of readdirSync('dist/webview'))
    if (f.endsWith('.js') || f.endsWith('.css') || f.endsWith('.ttf')) copyFileSync(join('dist/webview', f), join(dir, f));
  copyFileSync('media/webview.css', join(dir, 'webview.css'));
  const WIDTH = 340;
  // the host's share: decimating 45 series for the charts' width (median of 5), added to the page's time
  const hostMs = new Map<number, number>();
  const dash = (its: number): HostMessage[] => {
    const table = metricsTable(its, 45);
    const times: number[] = [];
    let series = seriesViews(table, WIDTH);
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      series = seriesViews(table, WIDTH);
      times.push(performance.now() - t0);
    }
    hostMs.set(its, times.sort((a, b) => a - b)[2]!);
    return [{ type: 'metrics/data', runName: 'bench', iterations: its, xRange: { min: 0, max: its - 1 }, pinned: [], series, more: 0 }];
  };
  // painted: the first row of charts (four at this width) drawn
  const firstRow = '.charts > .chart-card:nth-child(4)[data-drawn]';
  const rows = Array.from({ length: 200 }, (_, i) =>
    rowView({
      row: i,
      iteration: Math.floor(i / 240),
      group: Math.floor(i / 5) % 48,
      rollout: i % 5,
      reward: i % 3 === 0 ? 1 : 0,
      A: 0.447,
      labeled: i % 5 < 2,
      turns: 9,
      labeledTurns: 8,
      creditedTurns: 7,
      meanC: 0.01,
      signFlips: 0,
      argmaxTurns: 2,
      fallbackTurns: 0,
      flags: 130,
      line: i + 1,
    }),
  );
  const table: HostMessage[] = [
    {
      type: 'trajectories/page',
      runName: 'bench',
      query: { filter: {}, sort: [] },
      total: 500_000,
      size: 500_000,
      offset: 0,
      rows,
      label: null,
      searching: false,
    },
  ];
  const cases: {
    name: string;
    kind: string;
    msgs: HostMessage[];
    ready: string;
    target: string;
    onReady: 'all' | 'query';
    host?: number;
  }[] = [
    { name: 'baseline: the page with no data', kind: 'metrics', msgs: [], ready: '#metrics-info', target: '', onReady: 'all' },
    {
      name: 'dashboard, 45 metrics x 2,000 iterations',
      kind: 'metrics',
      msgs: dash(2000),
      ready: firstRow,
      target: '500',
      host: 2000,
      onReady: 'all',
    },
    {
      name: 'dashboard, 45 metrics x 20,000 iterations',
      kind: 'metrics',
      msgs: dash(20000),
      ready: firstRow,
      target: '1000',
      host: 20000,
      onReady: 'all',
    },
    { name: 'trajectory table, 500,000 rows', kind: 'trajectories', msgs: table, ready: '.trow', target: '300', onReady: 'query' },
  ];
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--allow-file-access-from-files'],
  });
  const results: { name: string; ms: number; host: number; target: string }[] = [];
  try {
    for (const c of cases) {
      const file = join(dir, `${c.kind}-${results.length}.html`);
      writeFileSync(`${file}.json`, JSON.stringify(c.msgs));
      writeFileSync(
        file,
        page(c.kind, { kind: c.kind as PanelState['kind'], root: '/bench' }, `${c.kind}-${results.length}.html.json`, c.onReady),
      );
      const times: number[] = [];
      for (let k = 0; k < RUNS; k++) {
        const p = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        // Timed inside the page, from navigation start: when the ready element is in the DOM,
        // the next frame paints it; a task queued from that frame's callback runs after the paint.
        await p.addInitScript(`(() => {
          const sel = ${JSON.stringify(c.ready)};
          const done = () => requestAnimationFrame(() => setTimeout(() => { window.__painted = performance.now(); }, 0));
          const mo = new MutationObserver(() => { if (document.querySelector(sel)) { mo.disconnect(); done(); } });
          mo.observe(document, { subtree: true, childList: true, attributes: true });
        })();`);
        await p.goto(`file://${file}`);
        const ms = (await (await p.waitForFunction('window.__painted', undefined, { timeout: 30_000 })).jsonValue()) as number;
        times.push(ms);
        await p.close();
      }
      times.sort((a, b) => a - b);
      results.push({ name: c.name, ms: times[RUNS >> 1]!, host: c.host ? hostMs.get(c.host)! : 0, target: c.target });
    }
  } finally {
    await browser.close();
    if (process.env['RLRB_BENCH_KEEP']) console.log(`pages kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const base = results[0]!.ms;
  recordResults(`webviews (headless Chromium, production bundles, stub VS Code API; median of ${RUNS} cold pages)`, [
    'Time from navigation start to the frame that shows the content (the first row of charts; the first rows of the table), timed inside the page; host: decimating the series in Node for that page.',
    '',
    '| page | page (ms) | host (ms) | first paint (ms) | ratio to baseline | target (ms) |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.ms.toFixed(0)} | ${r.host.toFixed(1)} | ${(r.ms + r.host).toFixed(0)} | ${((r.ms + r.host) / base).toFixed(2)} | ${r.target ? `< ${r.target}` : ''} |`,
    ),
  ]);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
