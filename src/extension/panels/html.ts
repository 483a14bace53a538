/**
 * One HTML builder for every panel: a fresh nonce, a strict CSP, state embedded as JSON.
 * The page's script and stylesheets may come inline (nonce'd), so that the page needs no
 * resource round trip through the workbench before it runs, and the host's first
 * messages embedded, so that its first paint needs no message round trip either.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

export interface HtmlParts {
  cspSource: string;
  scriptUri: string;
  styleUris: string[];
  title: string;
  /** embedded as a nonce'd JSON block, read before any message arrives */
  initialState: unknown;
  /** the host's first messages, embedded as a JSON array (`#first-messages`) that the page handles as if they had come */
  firstMessages?: unknown[];
  /** the script's text, inlined (`scriptUri` then stays on the element as `data-src`, where the page finds its bundles' folder) */
  inlineScript?: string;
  /** stylesheets' texts, inlined after the linked `styleUris` */
  inlineStyles?: string[];
}

/** Whether a script's text can sit inside a <script> element as is (nothing there the HTML parser would act on). */
export function inlineable(js: string): boolean {
  return !/<\/script|<!--|<script/i.test(js);
}

const assets = new Map<string, { mtimeMs: number; text: string }>();

/** A file of the extension (a bundle, a stylesheet) as text, read once while unchanged; undefined when it cannot be read. */
export function assetText(path: string): string | undefined {
  try {
    const { mtimeMs } = statSync(path);
    const hit = assets.get(path);
    if (hit?.mtimeMs === mtimeMs) return hit.text;
    const text = readFileSync(path, 'utf8');
    assets.set(path, { mtimeMs, text });
    return text;
  } catch {
    return undefined;
  }
}

export function nonce(): string {
  return randomBytes(18).toString('base64').replace(/[+/=]/g, '');
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON that is safe inside a <script> element. */
export function scriptJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function csp(cspSource: string, n: string): string {
  return [
    `default-src 'none'`,
    `script-src 'nonce-${n}'`,
    `style-src ${cspSource} 'nonce-${n}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

export function buildHtml(p: HtmlParts): string {
  const n = nonce();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp(p.cspSource, n))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${p.styleUris.map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}">`).join('\n')}
${(p.inlineStyles ?? []).map((css) => `<style nonce="${n}">${css.replace(/<\//g, '<\\/')}</style>`).join('\n')}
<title>${escapeHtml(p.title)}</title>
</head>
<body>
<div id="app" role="main"></div>
<script type="application/json" id="initial-state" nonce="${n}">${scriptJson(p.initialState)}</script>
${p.firstMessages?.length ? `<script type="application/json" id="first-messages" nonce="${n}">${scriptJson(p.firstMessages)}</script>\n` : ''}${script(p, n)}
</body>
</html>`;
}

function script(p: HtmlParts, n: string): string {
  const src = escapeHtml(p.scriptUri);
  if (p.inlineScript !== undefined && inlineable(p.inlineScript))
    return `<script nonce="${n}" data-src="${src}">${p.inlineScript}</script>`;
  return `<script nonce="${n}" src="${src}"></script>`;
}
