import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Appends a section to bench/results.md, dated, with the machine's core count. */
export function appendResults(title: string, lines: string[]): void {
  const path = 'bench/results.md';
  if (!existsSync(path)) writeFileSync(path, '# Benchmark results\n\nAppended by `npm run bench`; each section is one run.\n');
  const head = `\n## ${title}: ${new Date().toISOString()} (${cpus().length} cores, Node ${process.version})\n\n`;
  appendFileSync(path, head + lines.join('\n') + '\n');
  console.log(lines.join('\n'));
}

export function mbps(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}

export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}
