/**
 * What runs inside the workbench's pages to time them: an init script Playwright adds to
 * every document (the workbench, each webview's outer frame, each inner frame), so the
 * clocks are read in the page, not in Node. All times are `performance.timeOrigin +
 * performance.now()` (milliseconds on the wall clock, comparable across frames).
 */
import { FLOORS } from './floor';

/** "Content is there" for each panel: expressions over `d`, a webview's inner document. */
export const CHECKS: Record<string, string> = {
  // the first row of charts drawn (the row of the first card), as the bare-page bench counts it
  metrics: `(() => {
    if (!d.querySelector('.chart-card[data-drawn]')) return false;
    const cs = [...d.querySelectorAll('.charts > .chart-card')];
    const top = cs[0] && cs[0].offsetTop;
    return cs.length > 0 && cs.filter((c) => c.offsetTop === top).every((c) => c.dataset.drawn === 'true');
  })()`,
  trajectories: `!!d.querySelector('.trow')`,
  jump: `!!d.querySelector('.trow') && /ws\\/c_mean @ \\d+/.test((d.getElementById('jump-label') || {}).textContent || '')`,
  // the retained browser with rows under a jump label other than the one it had before the click (set in its window)
  jumpAgain: `typeof d.defaultView.__rlrbPrevJump === 'string' && !!d.querySelector('.trow') && /ws\\/c_mean @ \\d+/.test((d.getElementById('jump-label') || {}).textContent || '') && (d.getElementById('jump-label') || {}).textContent !== d.defaultView.__rlrbPrevJump`,
  report: `!!d.querySelector('#report-table tr[data-key]')`,
  compare: `!!d.querySelector('#figures tr[data-key="success"]')`,
  // the task view with a run's groups; again: the retained one showing the task set in its window before the click
  task: `!!d.querySelector('#task-runs .grow')`,
  taskAgain: `typeof d.defaultView.__rlrbNextTask === 'string' && !!d.querySelector('#task-runs .grow') && ((d.querySelector('#task-title .task-key') || {}).textContent || '') === d.defaultView.__rlrbNextTask`,
  // the workbench floor's panels (see floor.ts)
  ...Object.fromEntries(FLOORS.map((f) => [f.key, f.check])),
};

/**
 * The init script. In the top document: `window.__rlrbArm()` makes the next Enter keydown
 * or pointerdown record `__rlrbT0`, and the next webview iframe added record `__rlrbIframe`;
 * `__rlrbLong` keeps the long tasks its event loop reports.
 * The inner frame's document is replaced by document.open/write (which drops observers and
 * listeners there), so its outer frame, whose document stays, watches it: on each of the
 * outer frame's animation frames it evaluates the checks on each inner document shown (the
 * visible active frame) and, in the task after the first frame painted where a check held,
 * writes the time into the inner window's `__rlrbSeen`; with `__rlrbMarks` (the inner
 * window's creation, its document written, the first host message) and, in the outer
 * window, `__rlrbSent` (when each kind of message from the page first went out).
 */
export function initScript(): string {
  const checks = Object.entries(CHECKS)
    .map(([k, v]) => `${JSON.stringify(k)}: (d) => ${v}`)
    .join(',\n');
  return `(() => {
  const now = () => performance.timeOrigin + performance.now();
  if (window === window.top) {
    // the event loop's long tasks (over 50 ms) as the workbench sees them: [start, duration, attribution]
    const long = (window.__rlrbLong = []);
    try {
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) long.push([performance.timeOrigin + e.startTime, e.duration, e.name]);
        if (long.length > 5000) long.splice(0, long.length - 5000);
      }).observe({ type: 'longtask', buffered: true });
    } catch { /* no long task timing */ }
    window.__rlrbArm = () => {
      window.__rlrbT0 = 0; window.__rlrbIframe = 0;
      const mark = (e) => {
        if (e.type === 'keydown' && e.key !== 'Enter') return;
        window.__rlrbT0 = now();
        removeEventListener('keydown', mark, true); removeEventListener('pointerdown', mark, true);
      };
      addEventListener('keydown', mark, true); addEventListener('pointerdown', mark, true);
      const mo = new MutationObserver((ms) => {
        for (const m of ms) for (const n of m.addedNodes)
          if (n.nodeName === 'IFRAME' || (n.querySelector && n.querySelector('iframe.webview'))) { window.__rlrbIframe = now(); mo.disconnect(); return; }
      });
      mo.observe(document.body, { childList: true, subtree: true });
    };
    return;
  }
  // a webview's outer frame is a child of the workbench (its inner frame, a grandchild, is left alone)
  if (window.parent !== window.top) return;
  {
    // the webview's outer frame: when it started, and when each kind of message from the page first passed
    window.__rlrbOuter = performance.timeOrigin;
    const sent = (window.__rlrbSent = {});
    // when each kind of message from the workbench (the html's 'content', 'message', ...) first arrived here
    const got = (window.__rlrbGot = {});
    const port = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
    if (location.pathname.includes('/webview/browser/pre/')) Object.defineProperty(MessagePort.prototype, 'onmessage', {
      configurable: true,
      get() { return port.get.call(this); },
      set(f) {
        port.set.call(this, f && ((e) => {
          const c = e.data && e.data.channel;
          if (typeof c === 'string' && !(c in got)) got[c] = now();
          return f(e);
        }));
      },
    });
    let fn;
    Object.defineProperty(window, '__vscode_post_message__', {
      configurable: true,
      get: () => fn,
      set: (f) => {
        fn = (channel, data, transfer) => {
          const t = data && data.message && data.message.type;
          if (channel === 'onmessage' && typeof t === 'string' && !(t in sent)) sent[t] = now();
          return f(channel, data, transfer);
        };
      },
    });
    const checks = {${checks}};
    const poll = () => {
      for (const f of document.querySelectorAll('iframe')) {
        let w, d;
        try { w = f.contentWindow; d = f.contentDocument; } catch { continue; }
        if (!w || !d || !d.body || !d.body.firstElementChild) continue;
        if (!w.__rlrbSeen) w.__rlrbSeen = {};
        const marks = (w.__rlrbMarks ||= { created: w.performance.timeOrigin, written: 0, message: 0, messageType: '', load: 0, visible: 0 });
        if (w.__rlrbDoc !== d.body) {
          // a written document: listen for the host's messages (from the next one on)
          w.__rlrbDoc = d.body;
          if (!marks.written) marks.written = now();
          w.addEventListener('message', (e) => { if (!marks.message && e.data && typeof e.data.type === 'string') { marks.message = now(); marks.messageType = e.data.type; } }, true);
          if (d.readyState === 'complete') marks.load ||= now();
          else w.addEventListener('load', () => { marks.load ||= now(); });
        }
        if (f.id === 'active-frame' && f.style.visibility !== 'hidden') marks.visible ||= now();
        if (f.id !== 'active-frame' || f.style.visibility === 'hidden') continue;
        const seen = w.__rlrbSeen;
        for (const k in checks) {
          if (k in seen) continue;
          let ok = false;
          try { ok = checks[k](d); } catch { ok = false; }
          if (!ok) continue;
          seen[k] = 0;
          setTimeout(() => { seen[k] = now(); }, 0);
        }
      }
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
    return;
  }
})();`;
}

/**
 * Evaluated in an existing inner frame before a click there: the click's pointerdown is
 * `__rlrbOne.t0`, the first painted frame where `check` holds is `__rlrbOne.t1`.
 */
export function armFrame(check: string): string {
  return `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const one = (window.__rlrbOne = { t0: 0, t1: 0 });
  addEventListener('pointerdown', () => { if (!one.t0) one.t0 = now(); }, { capture: true, once: true });
  const mo = new MutationObserver(() => {
    if (!one.t0 || !(${check})) return;
    mo.disconnect();
    requestAnimationFrame(() => setTimeout(() => { one.t1 = now(); }, 0));
  });
  mo.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
})()`;
}
