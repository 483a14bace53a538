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
import { seriesViews, rowView } from '../src/core/views';
import type { MetricsTable } from '../src/core/metricsIndex';
import type { HostMessage, PanelState } from '../src/shared/protocol';
import { appendResults } from './common';

function metricsTable(iterations: number, metrics: number): MetricsTable {
  const its = Array.from({ length: iterations }, (_, i) => i);
  return { iterations: its, series: Array.from({ length: metrics }, (_, m) => ({ name: `${m < 30 ? 'ws' : m < 38 ? 'train' : 'perf'}/metric_${m}`, values: Float64Array.from(its, (i) => Math.sin(i / 50 + m) + (i % 97 === 0 ? 0.5 : 0)) })) };
}

function page(kind: string, state: PanelState, messages: HostMessage[], onReady: 'all' | 'query'): string {
  const stub = `
    window.__msgs = ${JSON.stringify(messages)};
    window.acquireVsCodeApi = () => ({
      getState: () => undefined, setState: () => {},
      postMessage: (m) => {
        if (m.type === 'ready' || (${JSON.stringify(onReady)} === 'query' && m.type === 'trajectories/query' && !window.__sent)) {
          window.__sent = true;
          setTimeout(() => { for (const d of window.__msgs) window.postMessage(d, '*'); }, 0);
        }
      },
    });`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="stylesheet" href="webview.css"></head>
<body><div id="app"></div><script type="application/json" id="initial-state">${JSON.stringify(state)}</script>
<script>${stub}</script><script src="${kind}.js"></script></body></html>`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rlrb-wv-'));
  for (const f of readdirSync('dist/webview')) if (f.endsWith('.js') || f.endsWith('.css') || f.endsWith('.ttf')) copyFileSync(join('dist/webview', f), join(dir, f));
  copyFileSync('media/webview.css', join(dir, 'webview.css'));
  const WIDTH = 340;
  const dash = (its: number): HostMessage[] => [{ type: 'metrics/data', runName: 'bench', iterations: its, pinned: [], series: seriesViews(metricsTable(its, 45), WIDTH) }];
  const rows = Array.from({ length: 200 }, (_, i) => rowView({ row: i, iteration: Math.floor(i / 240), group: Math.floor(i / 5) % 48, rollout: i % 5, reward: i % 3 === 0 ? 1 : 0, A: 0.447, labeled: i % 5 < 2, turns: 9, labeledTurns: 8, creditedTurns: 7, meanC: 0.01, signFlips: 0, argmaxTurns: 2, fallbackTurns: 0, flags: 130, line: i + 1 }));
  const table: HostMessage[] = [{ type: 'trajectories/page', runName: 'bench', query: { filter: {}, sort: [] }, total: 500_000, offset: 0, rows, label: null, searching: false }];
  const cases: { name: string; kind: string; msgs: HostMessage[]; ready: string; target: string; onReady: 'all' | 'query' }[] = [
    { name: 'baseline: the page with no data', kind: 'metrics', msgs: [], ready: '#metrics-info', target: '', onReady: 'all' },
    { name: 'dashboard, 45 metrics x 2,000 iterations', kind: 'metrics', msgs: dash(2000), ready: '.chart-card[data-drawn]', target: '500', onReady: 'all' },
    { name: 'dashboard, 45 metrics x 20,000 iterations', kind: 'metrics', msgs: dash(20000), ready: '.chart-card[data-drawn]', target: '1000', onReady: 'all' },
    { name: 'trajectory table, 500,000 rows', kind: 'trajectories', msgs: table, ready: '.trow', target: '300', onReady: 'query' },
  ];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--allow-file-access-from-files'] });
  const results: { name: string; ms: number; target: string }[] = [];
  try {
    for (const c of cases) {
      const file = join(dir, `${c.kind}-${results.length}.html`);
      writeFileSync(file, page(c.kind, { kind: c.kind as PanelState['kind'], root: '/bench' }, c.msgs, c.onReady));
      const times: number[] = [];
      for (let k = 0; k < 3; k++) {
        const p = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        await p.goto(`file://${file}`);
        await p.waitForSelector(c.ready, { timeout: 30_000, state: 'attached' });
        // first paint after the content is in: the next animation frame
        const ms = await p.evaluate('new Promise((r) => requestAnimationFrame(() => r(performance.now())))') as number;
        times.push(ms);
        await p.close();
      }
      times.sort((a, b) => a - b);
      results.push({ name: c.name, ms: times[1]!, target: c.target });
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const base = results[0]!.ms;
  appendResults('webviews (headless Chromium, built bundles, stub VS Code API; median of 3)', [
    '| page | time to first paint (ms) | ratio to baseline | target (ms) |',
    '|---|---|---|---|',
    ...results.map((r) => `| ${r.name} | ${r.ms.toFixed(0)} | ${(r.ms / base).toFixed(2)} | ${r.target ? `< ${r.target}` : ''} |`),
  ]);
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
