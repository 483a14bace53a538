/**
 * The workbench floor: a bench-only extension (never shipped, written here at run time)
 * whose panels do nothing of ours, opened with the options our panels pass, so the time
 * to their first frame is what the workbench costs before our code runs.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Breakdown } from './breakdown';
import { stats } from './stats';

export type FloorKey = 'floorStatic' | 'floorScript' | 'floorMessage';

export interface Floor {
  key: FloorKey;
  /** its command is `rlrbBenchFloor.<id>`, its script media/<id>.js */
  id: 'static' | 'script' | 'message';
  /** the palette title ("Bench Floor: …") */
  title: string;
  /** what the page is, for the table */
  page: string;
  /** "content is there", over `d`, the webview's inner document (see probe.ts CHECKS) */
  check: string;
}

/** Our dashboard's bundle: the floor's script is padded to its size. */
export const BUNDLE = 'dist/webview/metrics.js';

export const FLOORS: readonly Floor[] = [
  {
    key: 'floorStatic',
    id: 'static',
    title: 'Bench Floor: Static Panel',
    page: 'a CSP and one `<p>`, no script',
    check: `!!d.getElementById('floor')`,
  },
  {
    key: 'floorScript',
    id: 'script',
    title: 'Bench Floor: Panel With Our Bundle Size',
    page: 'the same, plus one nonce’d `<script src>` (a local file the size of our dashboard’s bundle, padded with a comment) that sets a mark',
    check: `d.body.dataset.floor === 'script' || d.body.dataset.floor === 'message'`,
  },
  {
    key: 'floorMessage',
    id: 'message',
    title: 'Bench Floor: Panel With One Message',
    page: 'the same, and the script posts `ready`; the host answers one message; the page marks its arrival',
    check: `d.body.dataset.floor === 'message'`,
  },
];

const NAME = 'rlrb-bench-floor';

/** The host side: one command per floor, each opening a panel with the options of src/extension/panels/panelManager.ts. */
const EXTENSION_JS = `const vscode = require('vscode');
const { randomBytes } = require('crypto');
exports.activate = (ctx) => {
  const media = vscode.Uri.joinPath(ctx.extensionUri, 'media');
  const open = (kind) => {
    const panel = vscode.window.createWebviewPanel('rlrbBenchFloor.' + kind, 'Floor', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
      retainContextWhenHidden: true,
    });
    const w = panel.webview;
    const n = randomBytes(18).toString('base64').replace(/[+/=]/g, '');
    const csp = "default-src 'none'; script-src 'nonce-" + n + "'; style-src " + w.cspSource + '; font-src ' + w.cspSource + '; img-src ' + w.cspSource + ' data:';
    const src = w.asWebviewUri(vscode.Uri.joinPath(media, kind + '.js')).toString();
    const script = kind === 'static' ? '' : '<script nonce="' + n + '" src="' + src + '"></script>';
    if (kind === 'message') w.onDidReceiveMessage((m) => { if (m && m.type === 'ready') void w.postMessage({ type: 'floor' }); });
    w.html = '<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="' + csp +
      '"><title>Floor</title></head><body><p id="floor">floor</p>' + script + '</body></html>';
  };
  for (const k of ${JSON.stringify(FLOORS.map((f) => f.id))}) ctx.subscriptions.push(vscode.commands.registerCommand('rlrbBenchFloor.' + k, () => open(k)));
};
`;

const PAGE_JS: Record<'script' | 'message', string> = {
  script: `document.body.dataset.floor = 'script';\n`,
  message: `const api = acquireVsCodeApi();
addEventListener('message', (e) => { if (e.data && e.data.type === 'floor') document.body.dataset.floor = 'message'; });
document.body.dataset.floor = 'script';
api.postMessage({ type: 'ready' });
`,
};

/** `code` behind a comment of random base64 (so it does not compress better than a bundle) to exactly `bytes` bytes. */
function padded(code: string, bytes: number): string {
  const room = bytes - code.length - '/*  */\n'.length;
  if (room < 0) throw new Error(`the floor's script is longer than ${bytes} bytes`);
  const pad = randomBytes(room).toString('base64').slice(0, room);
  return `/* ${pad} */\n${code}`;
}

/**
 * Writes the floor extension into `dir` and packages it; the VSIX's path, and the byte
 * size its scripts were padded to (`BUNDLE`'s: the packaged one when `ours`, the VSIX,
 * was packaged after it was built, as scripts/bench.mjs does).
 */
export function floorVsix(dir: string, ours: string): { vsix: string; bytes: number } {
  const { size: bytes, mtimeMs } = statSync(BUNDLE);
  if (mtimeMs > statSync(ours).mtimeMs)
    console.warn(`${BUNDLE} was built after ${ours} was packaged: the floor's script may not be the size of the packaged bundle`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'media'), { recursive: true });
  const manifest = {
    name: NAME,
    displayName: 'Bench Floor',
    description: 'The benchmark’s workbench floor (never shipped)',
    publisher: 'rlrb-bench',
    version: '0.0.1',
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    contributes: {
      commands: FLOORS.map((f) => ({
        command: `rlrbBenchFloor.${f.id}`,
        title: f.title.replace(/^Bench Floor: /, ''),
        category: 'Bench Floor',
      })),
    },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'extension.js'), EXTENSION_JS);
  writeFileSync(join(dir, 'README.md'), 'The benchmark’s workbench floor.\n');
  for (const [k, code] of Object.entries(PAGE_JS)) writeFileSync(join(dir, 'media', `${k}.js`), padded(code, bytes));
  const vsix = join(dir, `${NAME}.vsix`);
  const vsce = resolve('node_modules', '.bin', 'vsce');
  const r = spawnSync(vsce, ['package', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`packaging the floor extension failed: ${r.stderr || r.stdout}`);
  return { vsix, bytes };
}

/** Which floor each of our figures that opens a webview stands on: all of ours wait for the host's first message to paint. */
const STANDS_ON: Readonly<Record<string, FloorKey>> = {
  dashboard: 'floorMessage',
  browser: 'floorMessage',
  report: 'floorMessage',
  compare: 'floorMessage',
  chart: 'floorMessage',
  task: 'floorMessage',
};

/** "b. Bench Floor: Panel With Our Bundle Size" */
function floorName(f: Floor): string {
  return `${'abc'[FLOORS.indexOf(f)]}. ${f.title}`;
}

/** The table "What the workbench costs before our code runs", from one data set's samples (ours and the floors'). */
export function floorLines(
  s: Readonly<Record<string, readonly number[]>>,
  /** the breakdowns of the same opens, by figure */
  notes: ReadonlyMap<string, readonly Breakdown[]>,
  ours: readonly { key: string; name: string }[],
  bytes: number,
): string[] {
  const med = (k: string): number => stats(s[k] ?? []).med;
  /** the median of `f` over the breakdowns of figure `k` */
  const step = (k: string, f: (b: Breakdown) => number): number => stats((notes.get(k) ?? []).map(f)).med;
  const wait = step('floorStatic', (b) => b.fakeWorker - b.fakeStart);
  const firstWait = step('warm-up', (b) => b.fakeWorker - b.fakeStart);
  const have = (k: string): boolean => (s[k]?.length ?? 0) > 0;
  const floors = FLOORS.filter((f) => have(f.key));
  if (floors.length === 0) return [];
  const runs = Math.min(...floors.map((f) => s[f.key]?.length ?? 0));
  const mine = ours.filter((o) => have(o.key) && STANDS_ON[o.key] && have(STANDS_ON[o.key]!));
  return [
    `**What the workbench costs before our code runs** (demo run, ${runs} runs each, in the same cycles as our figures): a bench-only extension (written by the bench, never shipped) opens panels with our panels’ options (enableScripts, localResourceRoots, retainContextWhenHidden); each span is Enter on the palette row → first painted frame with the floor’s mark, timed as ours. The script of b and c is ${bytes.toLocaleString('en')} bytes, the size of ${BUNDLE} (the dashboard’s bundle).`,
    '',
    '| floor | the page | median (ms) | min–max (ms) | its document written → painted, median (ms) |',
    '|---|---|---|---|---|',
    ...floors.map((f) => {
      const t = stats(s[f.key] ?? []);
      return `| ${floorName(f)} | ${f.page} | ${t.med.toFixed(0)} | ${t.min.toFixed(0)}–${t.max.toFixed(0)} | ${step(f.key, (b) => b.painted - b.written).toFixed(0)} |`;
    }),
    ...(Number.isFinite(wait)
      ? [
          '',
          `Of floor a, ${wait.toFixed(0)} ms (median) pass between its inner frame’s navigation start and the service worker’s fetch event for the workbench’s fake.html (fakeStart → fakeWorker below), with no long task on the workbench’s event loop then (busyBeforeFake); most of the run-to-run spread is there, so the last column (from the workbench writing the floor’s html into the inner frame) shows what the script and the message add.${Number.isFinite(firstWait) ? ` The first webview of this browser (the warm-up’s first panel, on a fresh profile) waited ${firstWait.toFixed(0)} ms there.` : ''}`,
        ]
      : []),
    ...(mine.length ? ourPart(mine, med) : []),
  ];
}

/**
 * Our figures on another data set (`ours`) less the floors timed on the demo run (`floors`):
 * the part of a panel that may grow with the run, against the goal of #28 (under 300 ms).
 */
export function ourPartAt(
  name: string,
  ours: Readonly<Record<string, readonly number[]>>,
  floors: Readonly<Record<string, readonly number[]>>,
  figures: readonly { key: string; name: string }[],
): string[] {
  const med = (s: Readonly<Record<string, readonly number[]>>, k: string): number => stats(s[k] ?? []).med;
  const mine = figures.filter((o) => (ours[o.key]?.length ?? 0) > 0 && STANDS_ON[o.key] && (floors[STANDS_ON[o.key]!]?.length ?? 0) > 0);
  if (mine.length === 0) return [];
  return [
    `**Our part on the ${name}**: its medians less the demo run’s floor (the workbench’s cost does not depend on the run); goal under 300 ms for every panel`,
    '',
    '| our figure | ours, median (ms) | floor | floor, median (ms) | our part (ms) | goal | |',
    '|---|---|---|---|---|---|---|',
    ...mine.map((o) => {
      const f = FLOORS.find((x) => x.key === STANDS_ON[o.key])!;
      const part = med(ours, o.key) - med(floors, f.key);
      return `| ${o.name} | ${med(ours, o.key).toFixed(0)} | ${floorName(f)} | ${med(floors, f.key).toFixed(0)} | ${part.toFixed(0)} | < 300 | ${part < 300 ? 'PASS' : 'FAIL'} |`;
    }),
  ];
}

/** Our figures less the floor each stands on. */
function ourPart(mine: readonly { key: string; name: string }[], med: (k: string) => number): string[] {
  return [
    '',
    'Our part: our median less the floor it stands on (our bundle’s parsing and running, our stylesheets and font, the host’s work and its answer, drawing). The chart figure starts at a click in the dashboard, not at an Enter: its floor is an approximation.',
    '',
    '| our figure | ours, median (ms) | floor | floor, median (ms) | our part (ms) | our part, share |',
    '|---|---|---|---|---|---|',
    ...mine.map((o) => {
      const f = FLOORS.find((x) => x.key === STANDS_ON[o.key])!;
      const part = med(o.key) - med(f.key);
      return `| ${o.name} | ${med(o.key).toFixed(0)} | ${floorName(f)} | ${med(f.key).toFixed(0)} | ${part.toFixed(0)} | ${((100 * part) / med(o.key)).toFixed(0)}% |`;
    }),
  ];
}
