/** Where a panel's time goes, from the marks the probe left in the pages; and the browser's memory. */
import { readFileSync, readdirSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

/**
 * Milliseconds from the command's input to each step (NaN when a mark is missing), in
 * the order they happen: the workbench adds the webview's iframe (its outer frame, the
 * workbench's index.html, registers a service worker), the html arrives there
 * ('content'), the inner frame is created (fake.html) and our document written into it;
 * its stylesheets, its bundle and the fonts load (each through the service worker and
 * the workbench); the page posts `ready`; its load event, after which the outer frame
 * makes it visible and hands it the host's messages held until then; the first painted
 * frame with the content.
 */
export interface Breakdown {
  iframe: number;
  outerFrame: number;
  htmlArrived: number;
  innerFrame: number;
  /**
   * fake.html, the inner frame's first document: its navigation started (the inner
   * document's time origin; document.write keeps it), its navigation's fetch started, the
   * webview's service worker started for it (its fetch event), its request sent, its
   * response in, its DOMContentLoaded (then ours is written)
   */
  fakeStart: number;
  fakeFetch: number;
  fakeWorker: number;
  fakeRequested: number;
  fakeLoaded: number;
  fakeDomReady: number;
  written: number;
  cssLoaded: number;
  bundleRequested: number;
  bundleLoaded: number;
  readySent: number;
  fontLoaded: number;
  load: number;
  visible: number;
  firstHostMessage: number;
  painted: number;
  /**
   * Durations, not times: ms of long tasks (over 50 ms) the workbench's event loop ran
   * during the span, in its own document (`busyWorkbench`), in its same-origin frames
   * (`busyFrames`: the webviews, when they share its process), and in its own document
   * between the inner frame's creation and fake.html's fetch (`busyBeforeFake`)
   */
  busyWorkbench: number;
  busyFrames: number;
  busyBeforeFake: number;
}

interface InnerMarks {
  created: number;
  written: number;
  origin: number;
  navFetch: number;
  navWorker: number;
  navRequest: number;
  navResponse: number;
  navDcl: number;
  message: number;
  load: number;
  visible: number;
  cssEnd: number;
  fontEnd: number;
  bundleStart: number;
  bundleEnd: number;
}

/** The resource timings of the inner document, as wall-clock times (0 when there is none of a kind). */
const RESOURCES = `(() => {
  const o = performance.timeOrigin;
  const rs = performance.getEntriesByType('resource');
  const end = (re) => rs.filter((e) => re.test(e.name)).reduce((t, e) => Math.max(t, o + e.responseEnd), 0);
  // the panel's own bundle (controls.js comes later, after the first paint), or the floor's script
  const js = rs.filter((e) => /\\/(dist\\/webview\\/(metrics|trajectories|report|compare|task)|media\\/(script|message))\\.js/.test(e.name));
  const nav = performance.getEntriesByType('navigation')[0];
  const at = (t) => (nav && t ? o + t : 0);
  return {
    ...window.__rlrbMarks,
    origin: o,
    navFetch: at(nav && nav.fetchStart),
    navWorker: at(nav && nav.workerStart),
    navRequest: at(nav && nav.requestStart),
    navResponse: at(nav && nav.responseEnd),
    navDcl: at(nav && nav.domContentLoadedEventStart),
    cssEnd: end(/\\.css(\\?|$)/),
    fontEnd: end(/\\.(ttf|woff2?)(\\?|$)/),
    bundleStart: js.length ? o + js[0].startTime : 0,
    bundleEnd: js.length ? o + js[0].responseEnd : 0,
  };
})()`;

/** ms of the workbench's long tasks within [a, b], by attribution ('self': its own document). */
const busy = (a: number, b: number): string => `(() => {
  const r = {};
  for (const [s, d, n] of window.__rlrbLong || []) {
    const o = Math.min(s + d, ${b}) - Math.max(s, ${a});
    if (o > 0) r[n] = (r[n] || 0) + o;
  }
  return r;
})()`;

const sum = (r: Record<string, number>, self: boolean): number =>
  Object.entries(r).reduce((t, [n, ms]) => t + ((n === 'self') === self ? ms : 0), 0);

export async function breakdown(page: Page, inner: Frame, t0: number, t1: number): Promise<Breakdown> {
  const iframe = await page.evaluate<number>('window.__rlrbIframe');
  const m = await inner.evaluate<InnerMarks>(RESOURCES);
  const outer = inner.parentFrame();
  const o = outer
    ? ((await outer.evaluate('({ start: window.__rlrbOuter, sent: window.__rlrbSent, got: window.__rlrbGot })').catch(() => undefined)) as
        { start: number; sent: Record<string, number>; got: Record<string, number> } | undefined)
    : undefined;
  // a mark from before the input is another panel's (the chart click arms no mark in the workbench): none
  const whole = await page.evaluate<Record<string, number>>(busy(t0, t1));
  const gap = await page.evaluate<Record<string, number>>(busy(m.created, m.navFetch));
  const d = (t: number | undefined): number => (t && t >= t0 ? t - t0 : NaN);
  return {
    iframe: d(iframe),
    outerFrame: d(o?.start),
    htmlArrived: d(o?.got['content']),
    innerFrame: d(m.created),
    fakeStart: d(m.origin),
    fakeFetch: d(m.navFetch),
    fakeWorker: d(m.navWorker),
    fakeRequested: d(m.navRequest),
    fakeLoaded: d(m.navResponse),
    fakeDomReady: d(m.navDcl),
    written: d(m.written),
    cssLoaded: d(m.cssEnd),
    bundleRequested: d(m.bundleStart),
    bundleLoaded: d(m.bundleEnd),
    readySent: d(o?.sent['ready']),
    fontLoaded: d(m.fontEnd),
    load: d(m.load),
    visible: d(m.visible),
    firstHostMessage: d(m.message),
    painted: t1 - t0,
    busyWorkbench: sum(whole, true),
    busyFrames: sum(whole, false),
    busyBeforeFake: m.created && m.navFetch ? sum(gap, true) : NaN,
  };
}

/** PSS (MB) of the Chromium started on `profile` and all its descendants. */
export function chromiumPssMb(profile: string): number {
  const kids = new Map<number, number[]>();
  let root = 0;
  for (const e of readdirSync('/proc')) {
    const pid = Number(e);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), pid]);
      if (!root && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--user-data-dir=${profile}`)) root = pid;
    } catch {
      /* gone */
    }
  }
  if (!root) return NaN;
  let kb = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    todo.push(...(kids.get(pid) ?? []));
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}
