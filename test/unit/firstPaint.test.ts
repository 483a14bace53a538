/**
 * A panel's first paint needs no round trip: its script and stylesheets can sit in its
 * html (nonce'd, never a way out of their element), and so can the host's first messages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildHtml, inlineable } from '../../src/extension/panels/html';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://x/dist/webview/metrics.js',
  styleUris: [],
  title: 'Metrics',
  initialState: { kind: 'metrics', root: '/r' },
};

const nonceOf = (html: string): string => /script-src &#39;nonce-([A-Za-z0-9]+)&#39;/.exec(html)![1]!;

test('an inlined script runs by the nonce and keeps its URL as data-src; a script that could close its element stays linked', () => {
  const html = buildHtml({ ...parts, inlineScript: 'window.x = 1 < 2;' });
  const n = nonceOf(html);
  assert.ok(html.includes(`<script nonce="${n}" data-src="https://x/dist/webview/metrics.js">window.x = 1 < 2;</script>`), html);
  assert.ok(!html.includes(' src="https://x/dist/webview/metrics.js"'));
  for (const bad of ['s = "</script><script>alert(1)"', 'a <!-- b', 'x = "<SCRIPT"']) {
    assert.equal(inlineable(bad), false, bad);
    const linked = buildHtml({ ...parts, inlineScript: bad });
    assert.ok(!linked.includes(bad), bad);
    assert.ok(linked.includes(`<script nonce="${nonceOf(linked)}" src="https://x/dist/webview/metrics.js"></script>`));
  }
});

test('inlined stylesheets are allowed by the nonce only, and cannot close their element', () => {
  const html = buildHtml({ ...parts, inlineStyles: ['body { color: red }', 'a::after { content: "</style><script>alert(1)</script>" }'] });
  const n = nonceOf(html);
  assert.ok(html.includes(`style-src https://file+.vscode-resource.vscode-cdn.net &#39;nonce-${n}&#39;;`));
  assert.ok(!/unsafe-inline/.test(html));
  assert.ok(html.includes(`<style nonce="${n}">body { color: red }</style>`));
  assert.ok(!html.includes('</style><script>'), 'a stylesheet cannot end its element');
});

test("the host's first messages are embedded as JSON that cannot close its script, and parse back equal", () => {
  const first = [
    { type: 'metrics/data', runName: '</script><script>alert(1)</script>', series: [{ name: 'a\u2028b', x: [1, 2], y: [0.5, -1] }] },
    { type: 'error', message: '<!-- & -->' },
  ];
  const html = buildHtml({ ...parts, firstMessages: first });
  const n = nonceOf(html);
  const m = new RegExp(`<script type="application/json" id="first-messages" nonce="${n}">([^<]*)</script>`).exec(html);
  assert.ok(m, "a nonce'd JSON block");
  assert.deepEqual(JSON.parse(m[1]!), first);
  assert.ok(!html.includes('</script><script>alert'));
  assert.ok(!buildHtml(parts).includes('first-messages'), 'no block without messages');
});
