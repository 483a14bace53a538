/** Where a panel's time goes, from the marks the probe left in the pages; and the browser's memory. */
import { readFileSync, readdirSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

/** Milliseconds from the command's input to each step (NaN when a mark is missing). */
export interface Breakdown {
  iframe: number;
  outerFrame: number;
  innerFrame: number;
  bundleRequested: number;
  bundleLoaded: number;
  readySent: number;
  firstHostMessage: number;
  painted: number;
}

interface InnerMarks {
  created: number;
  written: number;
  message: number;
  bundleStart: number;
  bundleEnd: number;
}

export async function breakdown(page: Page, inner: Frame, t0: number, t1: number): Promise<Breakdown> {
  const iframe = await page.evaluate<number>('window.__rlrbIframe');
  // the panel's own bundle (controls.js comes later, after the first paint)
  const m = await inner.evaluate<InnerMarks>(`(() => {
    const js = performance.getEntriesByType('resource').filter((e) => /\\/dist\\/webview\\/(metrics|trajectories|report)\\.js/.test(e.name));
    const o = performance.timeOrigin;
    return { ...window.__rlrbMarks, bundleStart: js.length ? o + js[0].startTime : 0, bundleEnd: js.length ? o + js[0].responseEnd : 0 };
  })()`);
  const outer = inner.parentFrame();
  const o = outer
    ? ((await outer.evaluate('({ start: window.__rlrbOuter, sent: window.__rlrbSent })').catch(() => undefined)) as
        { start: number; sent: Record<string, number> } | undefined)
    : undefined;
  const d = (t: number | undefined): number => (t ? t - t0 : NaN);
  return {
    iframe: d(iframe),
    outerFrame: d(o?.start),
    innerFrame: d(m.created),
    bundleRequested: d(m.bundleStart),
    bundleLoaded: d(m.bundleEnd),
    readySent: d(o?.sent['ready']),
    firstHostMessage: d(m.message),
    painted: t1 - t0,
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
