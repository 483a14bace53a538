/**
 * `rlrb demo <dir>`: writes the demo run (and its fake Hub repo and plain GRPO baseline).
 * `--grow S`: a demo run that trains instead: its first iterations, then one more every S seconds.
 */
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_ITERATIONS, writeDemo } from '../../core/demo/demo';
import { demoStage, growingRun } from '../../core/demo/growingRun';
import { UsageError, numberFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { writeOut } from '../output/safeText';

/** The most trajectories `--trajectories` takes: about 1.3 GB of credit log (`1e12` wrote without bound). */
export const MAX_DEMO_TRAJECTORIES = 1_000_000;

/** The iterations a growing demo starts with when `--from` is not given. */
export const GROW_FROM = 5;

/**
 * Writes the demo's first `from` iterations into `dir`, then one more (its credit lines, its
 * metrics row, a checkpoint when one is due, an evaluation) every `seconds`, until all 45 are
 * in or the process is stopped. One line a step on stdout.
 */
async function grow(dir: string, seconds: number, from: number): Promise<number> {
  const g = growingRun(dir, DEMO_ITERATIONS);
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (let n = from; n <= DEMO_ITERATIONS; n++) {
      const stage = demoStage(n, DEMO_ITERATIONS);
      g.show(stage);
      const cps = (stage.checkpoints ?? []).filter(([, it]) => it === n - 1).map(([k]) => k);
      writeOut(`${dir}: iterations 0 to ${n - 1}${cps.length ? ` · checkpoint ${cps.join(' and ')} of ${n - 1}` : ''}\n`);
      if (n === DEMO_ITERATIONS) break;
      await sleep(seconds * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
      if (stop.signal.aborted) break;
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return 0;
}

function run(a: ParsedArgs): number | Promise<number> {
  const dir = a.positional[1];
  if (!dir || a.positional.length > 2) throw new UsageError(`usage: rlrb ${DEMO.usage}`);
  const every = numberFlag(a, 'grow', { min: 1 });
  const from = numberFlag(a, 'from', { int: true, min: 1, max: DEMO_ITERATIONS });
  if (every === undefined && from !== undefined) throw new UsageError('--from goes with --grow');
  if (every !== undefined) {
    for (const f of ['trajectories', 'seed', 'no-hub-repo', 'no-baseline'])
      if (a.flags.has(f)) throw new UsageError(`--${f} does not go with --grow (a growing demo is the demo's logs and checkpoints only)`);
    return grow(resolve(dir), every, from ?? GROW_FROM);
  }
  const n = numberFlag(a, 'trajectories', { int: true, min: 1, max: MAX_DEMO_TRAJECTORIES });
  const seed = numberFlag(a, 'seed', { int: true });
  const tty = process.stderr.isTTY === true;
  const res = writeDemo(resolve(dir), {
    ...(n !== undefined ? { trajectories: n } : {}),
    ...(seed !== undefined ? { seed } : {}),
    hubRepo: !a.flags.has('no-hub-repo'),
    baseline: !a.flags.has('no-baseline'),
    onProgress: tty ? (d, t) => process.stderr.write(`\rwriting ${d} / ${t} trajectories`) : undefined,
  });
  if (tty) process.stderr.write('\r\x1b[K');
  const lines = [
    `wrote ${res.trajectories} trajectories over ${res.iterations} iterations (${(res.bytes / 1e6).toFixed(1)} MB)`,
    `  ${res.creditLog}`,
    `  ${res.metricsLog}`,
    ...(res.hubRepo ? [`  fake Hub repo: ${res.hubRepo}`] : []),
    ...(res.baseline ? [`  plain GRPO baseline: ${res.baseline.root}`] : []),
  ];
  writeOut(lines.join('\n') + '\n');
  return 0;
}

export const DEMO: Command = {
  usage:
    `demo <dir> [--trajectories N (1 to ${MAX_DEMO_TRAJECTORIES})] [--seed S] [--no-hub-repo] [--no-baseline]` +
    ` | demo <dir> --grow S [--from N]`,
  about:
    'Writes the demo run. --grow S writes a run that trains instead: its first N iterations (5), then one more every S seconds ' +
    '(logs, a checkpoint every fifth iteration, evaluations) until all 45 are in; follow it with rlrb watch or the editor.',
  flags: { trajectories: 'string', seed: 'string', 'no-hub-repo': 'boolean', 'no-baseline': 'boolean', grow: 'string', from: 'string' },
  run,
};
