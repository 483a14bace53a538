/**
 * The demo's second run: a plain GRPO reproduction on the same task pool (the same
 * task at the same slot, with the same difficulty), a little weaker on average. Its
 * credit log has no labeled turn and no candidates (turns hold only `action`), and its
 * metrics log uses plain-RL names, some shared with the ws-credit run and some not.
 */
import { writeSync } from 'node:fs';
import { mean } from '../report/stats';
import { writeRunLogs } from './runLogs';
import type { RecordHead } from './gen';
import { advantages, doneAction, Gen, randomAction, recordHead, rng, successChance, taskAt } from './gen';

/** what training adds to the success chance over the run (the ws-credit run gains 0.074) */
export const BASELINE_GAIN = 0.045;

export interface BaselineOptions {
  trajectories: number;
  /** the seed of the task pool: the ws-credit run's seed */
  seed: number;
  iterations: number;
  groups: number;
  rollouts: number;
  onProgress?: (done: number, total: number) => void;
}

export interface BaselineResult {
  root: string;
  creditLog: string;
  metricsLog: string;
  trajectories: number;
  iterations: number;
  bytes: number;
}

interface Plain extends RecordHead {
  turns: { action: string }[];
}

/** Writes the plain GRPO run into `root/logs/`. */
export function writeBaseline(root: string, o: BaselineOptions): BaselineResult {
  const perIteration = o.groups * o.rollouts;
  const iterations = Math.ceil(o.trajectories / perIteration);
  const g = new Gen(rng((o.seed ^ 0x5bd1e995) >>> 0));
  let written = 0;
  let bytes = 0;
  const { creditLog, metricsLog } = writeRunLogs(root, (fd, mfd) => {
    for (let it = 0; it < iterations && written < o.trajectories; it++) {
      const progress = it / Math.max(1, o.iterations - 1);
      const trajs: Plain[] = [];
      for (let grp = 0; grp < o.groups && written < o.trajectories; grp++) {
        const task = taskAt(o.seed, it, grp);
        const p = successChance(task.difficulty, progress, BASELINE_GAIN);
        const rewards: number[] = Array.from({ length: o.rollouts }, () => (g.u() < p ? 1 : 0));
        if (!rewards.some((r) => r !== 0) && g.u() < 0.05) rewards[g.int(0, o.rollouts - 1)] = -1;
        const adv = advantages(rewards);
        for (let ro = 0; ro < o.rollouts && written < o.trajectories; ro++) {
          const reward = rewards[ro]!;
          const endsWithDone = reward > 0 || g.u() < 0.55;
          const n = endsWithDone ? g.int(3, 15) : g.u() < 0.7 ? 15 : g.int(4, 14);
          const turns = Array.from({ length: n }, (_, k) => ({ action: endsWithDone && k === n - 1 ? doneAction(g) : randomAction(g) }));
          trajs.push({ ...recordHead(it, grp, ro, task, reward, adv[ro]!), turns });
          written++;
        }
      }
      const text = trajs.map((t) => JSON.stringify(t) + '\n').join('');
      bytes += writeSync(fd, text);
      writeSync(mfd, JSON.stringify(plainMetrics(g, it, trajs, Math.min(1, progress))) + '\n');
      o.onProgress?.(written, o.trajectories);
    }
  });
  return { root, creditLog, metricsLog, trajectories: written, iterations, bytes };
}

function plainMetrics(g: Gen, it: number, trajs: Plain[], progress: number): Record<string, number> {
  const groups = new Map<number, Plain[]>();
  for (const t of trajs) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
  const allFail = [...groups.values()].filter((ts) => ts.every((t) => t.reward <= 0)).length;
  return {
    iteration: it,
    'rollout/reward_mean': mean(trajs.map((t) => t.reward)) ?? 0,
    'rollout/success_rate': mean(trajs.map((t) => (t.reward > 0 ? 1 : 0))) ?? 0,
    'rollout/all_fail_groups': allFail,
    'rollout/format_failures': trajs.filter((t) => t.reward < 0).length,
    'rollout/turns_mean': mean(trajs.map((t) => t.turns.length)) ?? 0,
    'rollout/response_len_mean': 275 + 80 * progress + g.normal() * 15,
    'rollout/truncation_rate': Math.max(0, 0.012 + 0.005 * progress + g.normal() * 0.002),
    'rollout/groups': groups.size,
    'rollout/temperature': 0.8,
    'train/loss': 0.05 - 0.018 * progress + g.normal() * 0.005,
    'train/grad_norm': 0.8 + g.u() * 0.4,
    'train/lr': 1e-6,
    'train/kl': 0.001 + 0.004 * progress + g.u() * 0.001,
    'train/entropy': 0.9 - 0.18 * progress + g.normal() * 0.02,
    'train/clip_frac': 0.02 + g.u() * 0.01,
    'perf/step_time_s': 540 + g.normal() * 40,
    'perf/rollout_time_s': 400 + g.normal() * 30,
    'perf/tokens_per_s': 5300 + g.normal() * 200,
  };
}
