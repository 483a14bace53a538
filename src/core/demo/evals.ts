/**
 * The demo's checkpoint evaluations (docs/format.md section 8): at every 10th iteration
 * and the last, a fixed set of tasks, several samples each, deterministic. Both demo
 * runs evaluate the same tasks (one difficulty per task), so the comparison pairs them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { doneAction, Gen, randomAction, rng, successChance, taskAt } from './gen';

export const DEMO_EVAL_TASKS = 274;
export const DEMO_EVAL_SAMPLES = 4;

export interface DemoEvalOptions {
  seed: number;
  /** iterations the run trained for (the last is evaluated) */
  iterations: number;
  /** the run's gain in success chance over training (the demo run's is larger than its baseline's) */
  gain: number;
  /** its own random stream */
  stream: number;
}

/** Checkpoints: iterations 9, 19, ... (every 10th) and the last. */
export function evalCheckpoints(iterations: number): number[] {
  const out: number[] = [];
  for (let it = 9; it < iterations; it += 10) out.push(it);
  if (iterations > 0 && out.at(-1) !== iterations - 1) out.push(iterations - 1);
  return out;
}

/** Writes `root/logs/eval_log.jsonl`; returns its path. */
export function writeDemoEvals(root: string, o: DemoEvalOptions): string {
  const g = new Gen(rng((o.seed ^ o.stream) >>> 0));
  const lines: string[] = [];
  for (const iteration of evalCheckpoints(o.iterations)) {
    const progress = iteration / Math.max(1, o.iterations - 1);
    for (let k = 0; k < DEMO_EVAL_TASKS; k++) {
      // the tasks of iteration 0's slots and beyond, the same in both runs
      const task = taskAt(o.seed, Math.floor(k / 48), k % 48);
      const p = successChance(task.difficulty, progress, o.gain);
      for (let sample = 0; sample < DEMO_EVAL_SAMPLES; sample++) {
        const reward = g.u() < p ? 1 : 0;
        const n = g.int(2, 8);
        const turns = Array.from({ length: n }, (_, t) => ({ action: reward > 0 && t === n - 1 ? doneAction(g) : randomAction(g) }));
        lines.push(JSON.stringify({ iteration, task_id: task.taskId, instruction: task.instruction, sample, reward, turns }) + '\n');
      }
    }
  }
  mkdirSync(join(root, 'logs'), { recursive: true });
  const path = join(root, 'logs', 'eval_log.jsonl');
  writeFileSync(path, lines.join(''));
  return path;
}
