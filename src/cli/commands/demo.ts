/** `rlrb demo <dir>`: writes the demo run (and its fake Hub repo and plain GRPO baseline). */
import { resolve } from 'node:path';
import { writeDemo } from '../../core/demo/demo';
import { UsageError, numberFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { writeOut } from '../output/safeText';

/** The most trajectories `--trajectories` takes: about 1.3 GB of credit log (`1e12` wrote without bound). */
export const MAX_DEMO_TRAJECTORIES = 1_000_000;

function run(a: ParsedArgs): number {
  const dir = a.positional[1];
  if (!dir || a.positional.length > 2) throw new UsageError(`usage: rlrb ${DEMO.usage}`);
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
  usage: `demo <dir> [--trajectories N (1 to ${MAX_DEMO_TRAJECTORIES})] [--seed S] [--no-hub-repo] [--no-baseline]`,
  flags: { trajectories: 'string', seed: 'string', 'no-hub-repo': 'boolean', 'no-baseline': 'boolean' },
  run,
};
