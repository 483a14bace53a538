import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { Worker } from 'node:worker_threads';

const RESULTS = 'bench/results.md';

/**
 * Puts a benchmark's latest figures in bench/results.md, dated, with the machine's core count:
 * its section (same title) is replaced where it is, or added at the end. Earlier runs live in git.
 */
export function recordResults(title: string, lines: string[]): void {
  const text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  // RLRB_BENCH_NOTE: a sentence said above the figures (a shared machine, say), so that a quiet rerun prints none
  const note = process.env['RLRB_BENCH_NOTE'];
  const said = note ? `**${note}**\n\n` : '';
  const section = `## ${title}\n\nMeasured ${new Date().toISOString()} (${cpus().length} cores, Node ${process.version}).\n\n${said}${lines.join('\n')}\n`;
  writeFileSync(RESULTS, replaceSection(text, title, section));
  console.log(lines.join('\n'));
}

/** The markdown with the `## title` section (up to the next `## `) replaced by `section`, or `section` appended. */
export function replaceSection(text: string, title: string, section: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === `## ${title}` || l.startsWith(`## ${title}: `));
  if (start < 0) return `${text.trimEnd()}\n\n${section}`;
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end < 0) end = lines.length;
  const after = lines.slice(end).join('\n');
  return `${lines.slice(0, start).join('\n')}\n${section}${after ? `\n${after}` : ''}`;
}

export function mbps(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}

export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** The speedup Amdahl's law allows on `cores` cores for a job whose `serial` fraction (0 to 1) runs on one. */
export function amdahl(serial: number, cores: number): number {
  return 1 / (serial + (1 - serial) / cores);
}

/** A fixed parsing job (JSON.parse of one log-like line, again and again) run in a worker thread, which answers with its own CPU ms (Linux). */
const SPIN = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
const turn = (i) => ({ action: 'click(' + i + ')', candidates: ['click(1)', 'type("a b")', 'scroll(3)'], scores: [0.25, -1.5e-3, i], c: i / 7 });
const line = JSON.stringify({ iteration: 3, group: 1, rollout: 2, reward: 0.5, A: -0.25, turns: Array.from({ length: 12 }, (_, i) => turn(i)) });
function job(n) {
  let k = 0;
  for (let i = 0; i < n; i++) k += JSON.parse(line).turns.length;
  return k;
}
job(1000);
const t = cpu();
const k = job(workerData);
parentPort.postMessage({ ms: cpu() - t, k });
`;

function spin(n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(SPIN, { eval: true, workerData: n });
    w.once('message', (m: { ms: number }) => resolve(m.ms));
    w.once('error', reject);
  });
}

/**
 * How fast a core parses while the others parse too, against alone: the CPU ms of one
 * parsing job alone over its CPU ms while `cores` such jobs run at once (1: cores that
 * share nothing; well below 1 for hardware threads of one physical core, or cores that
 * share a memory bus the job saturates). The speedup `cores` threads can reach is at most
 * `cores` times it. Only a quiet machine says it: when other work keeps the other cores
 * busy, alone is not alone.
 */
export async function coreSpeedShared(cores: number, n = 20_000): Promise<number> {
  const alone = Math.min(await spin(n), await spin(n));
  const together = await Promise.all(Array.from({ length: cores }, () => spin(n)));
  return alone / (together.reduce((a, b) => a + b, 0) / cores);
}
