// The third-party notices of the shipped bundles: every package esbuild put into them (read from
// the builds' metafiles), with its version, its licence and the text of its licence files, as
// their licences (MIT, ISC, BSD, Apache-2.0) ask of a copy that ships their code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.|-|$)/i;

/**
 * The package folder an input of a bundle comes from (`node_modules/<name>` or
 * `node_modules/@scope/<name>`, the innermost one for a nested copy), or undefined.
 * @param {string} input
 * @returns {string | undefined}
 */
export function packageDirOf(input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const scoped = parts[at + 1].startsWith('@');
  return parts.slice(0, at + (scoped ? 3 : 2)).join('/');
}

/**
 * The notices text for the packages bundled by builds with these metafiles (relative to `cwd`).
 * @param {{ inputs: Record<string, unknown> }[]} metafiles
 * @param {string} [cwd]
 * @returns {{ text: string, packages: { name: string, version: string, license: string, dir: string, files: string[] }[] }}
 */
export function thirdPartyNotices(metafiles, cwd = process.cwd()) {
  const dirs = new Set();
  for (const m of metafiles)
    for (const input of Object.keys(m.inputs)) {
      const dir = packageDirOf(input);
      if (dir !== undefined) dirs.add(dir);
    }
  const byName = new Map();
  for (const dir of [...dirs].sort()) {
    const pj = join(cwd, dir, 'package.json');
    if (!existsSync(pj)) continue;
    const p = JSON.parse(readFileSync(pj, 'utf8'));
    const key = `${p.name}@${p.version}`;
    if (byName.has(key)) continue;
    const files = readdirSync(join(cwd, dir))
      .filter((f) => LICENCE_FILE.test(f))
      .sort();
    const license = typeof p.license === 'string' ? p.license : (p.license?.type ?? 'see its licence file');
    byName.set(key, {
      name: p.name,
      version: p.version,
      license,
      dir,
      files,
      texts: files.map((f) => readFileSync(join(cwd, dir, f), 'utf8').trim()),
    });
  }
  const packages = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out = [
    'Third-party notices',
    '',
    'The bundles of this extension (dist/*.js, dist/webview/*.js) contain code of the packages below.',
    'Each is listed with its version and licence, followed by the licence text it ships.',
    '',
  ];
  for (const p of packages) {
    out.push('='.repeat(78), `${p.name} ${p.version} (${p.license})`, '='.repeat(78), '');
    if (p.texts.length === 0) out.push(`(the package ships no licence file; its package.json says: ${p.license})`, '');
    for (const t of p.texts) out.push(t, '');
  }
  return {
    text: out.join('\n'),
    packages: packages.map(({ name, version, license, dir, files }) => ({ name, version, license, dir, files })),
  };
}
