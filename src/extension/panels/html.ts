/** One HTML builder for every panel: a fresh nonce, a strict CSP, state embedded as JSON. */
import { randomBytes } from 'node:crypto';

export interface HtmlParts {
  cspSource: string;
  scriptUri: string;
  styleUris: string[];
  title: string;
  /** embedded as a nonce'd JSON block, read before any message arrives */
  initialState: unknown;
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
    `style-src ${cspSource}`,
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
<title>${escapeHtml(p.title)}</title>
</head>
<body>
<div id="app" role="main"></div>
<script type="application/json" id="initial-state" nonce="${n}">${scriptJson(p.initialState)}</script>
<script nonce="${n}" src="${escapeHtml(p.scriptUri)}"></script>
</body>
</html>`;
}
