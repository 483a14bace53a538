/**
 * A deterministic demo run in the reference schema, shaped like the card's run:
 * 45 iterations x 48 groups x 5 rollouts, 2 of 5 labeled, K = 5, up to 15 turns;
 * a small fake Hub repo tree for it that the Hub emulator serves; and a plain GRPO
 * baseline on the same tasks (`baseline.ts`) to compare it with.
 */
import { mkdirSync, writeSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { recomputeCredit, DEFAULT_CREDIT } from '../credit/credit';
import { sameAction, DEFAULT_MATCH } from '../credit/actions';
import { summarize } from '../record/trajectory';
import type { TrajectoryCore, TurnCore } from '../record/trajectory';
import { mean } from '../report/stats';
import { iterDirName } from '../hub/model';
import { writeRunLogs } from './runLogs';
import { advantages, doneAction, Gen, nearDuplicate, randomAction, recordHead, rng, successChance, taskAt } from './gen';
import type { DemoTask } from './gen';
import { BASELINE_GAIN, writeBaseline } from './baseline';
import { writeDemoEvals } from './evals';
import { DEMO_FOREIGN_METADATA, safetensorsBytes, writeDemoResume } from './checkpoints';
import type { DemoTensor } from './checkpoints';
import type { BaselineResult } from './baseline';

export const DEMO_REPO = 'XunmeiLiu/openwebrl-ws-credit-beta0.4';
export const DEMO_ITERATIONS = 45;
export const DEMO_GROUPS = 48;
export const DEMO_ROLLOUTS = 5;
export const DEMO_K = 5;
export const DEMO_RESUME_ITERATIONS = [9, 19, 29, 39] as const;
export const DEMO_HF_ITERATIONS = [19, 29, 39, 44] as const;
export const DEMO_LATEST = 39;
/** the resume iteration whose upload was cut: a shard missing, another short (docs/format.md section 9) */
export const DEMO_BROKEN_ITERATION = 9;
/** the resume iteration saved by another framework's planner: its `.metadata` cannot be vouched for ("cannot tell") */
export const DEMO_FOREIGN_ITERATION = 19;
export const DEMO_SEED = 20260923;
/** the baseline run's folder inside the demo folder */
export const DEMO_BASELINE_DIR = 'baseline';
/** what training adds to the success chance over the run (the baseline gains less) */
const DEMO_GAIN = 0.074;

type DemoTurn = TurnCore & { action: string };

interface DemoTrajectory extends TrajectoryCore {
  task_id: string;
  instruction: string;
  turns: DemoTurn[];
}

export interface DemoOptions {
  /** total trajectories; default 45 x 48 x 5 */
  trajectories?: number;
  seed?: number;
  /** write the fake Hub repo tree (default true) */
  hubRepo?: boolean;
  /** write the plain GRPO baseline run into `<dir>/baseline/` (default true) */
  baseline?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface DemoResult {
  creditLog: string;
  metricsLog: string;
  /** the checkpoint evaluations (section 8) */
  evalLog: string;
  hubRepo: string | undefined;
  /** the plain GRPO run on the same tasks, unless disabled */
  baseline: BaselineResult | undefined;
  trajectories: number;
  iterations: number;
  bytes: number;
}

const PER_ITERATION = DEMO_GROUPS * DEMO_ROLLOUTS;

/** Writes the demo run into `dir`: `logs/` and, unless disabled, `.hub-repo/` and the baseline run `baseline/logs/`. */
export function writeDemo(dir: string, o: DemoOptions = {}): DemoResult {
  const total = o.trajectories ?? DEMO_ITERATIONS * PER_ITERATION;
  const iterations = Math.ceil(total / PER_ITERATION);
  const seed = o.seed ?? DEMO_SEED;
  const g = new Gen(rng(seed));
  let written = 0;
  let bytes = 0;
  const { creditLog, metricsLog } = writeRunLogs(dir, (fd, mfd) => {
    let pending: string[] = [];
    let pendingLen = 0;
    const flush = (): void => {
      if (pending.length === 0) return;
      bytes += writeSync(fd, pending.join(''));
      pending = [];
      pendingLen = 0;
    };
    for (let it = 0; it < iterations && written < total; it++) {
      const progress = iterations > 1 ? it / (DEMO_ITERATIONS - 1) : 0;
      const itTrajs: DemoTrajectory[] = [];
      for (let grp = 0; grp < DEMO_GROUPS && written < total; grp++) {
        const task = taskAt(seed, it, grp);
        const pSucc = successChance(task.difficulty, progress, DEMO_GAIN);
        const rewards: number[] = Array.from({ length: DEMO_ROLLOUTS }, () => (g.u() < pSucc ? 1 : 0));
        const labeledSet = new Set<number>();
        while (labeledSet.size < 2) labeledSet.add(g.int(0, DEMO_ROLLOUTS - 1));
        // rare format failure, only where it cannot change a sign (all others failed)
        if (!rewards.some((r) => r !== 0) && g.u() < 0.05) {
          const k = [0, 1, 2, 3, 4].filter((i) => !labeledSet.has(i))[g.int(0, 2)]!;
          rewards[k] = -1;
        }
        formatFailureWithSmallA(it, grp, rewards, labeledSet);
        const adv = advantages(rewards);
        for (let ro = 0; ro < DEMO_ROLLOUTS && written < total; ro++) {
          const t = makeTrajectory(g, it, grp, ro, task, rewards[ro]!, adv[ro]!, labeledSet.has(ro));
          itTrajs.push(t);
          const line = serialise(t) + '\n';
          pending.push(line);
          pendingLen += line.length;
          if (pendingLen > 1 << 20) flush();
          written++;
        }
      }
      flush();
      writeSync(mfd, JSON.stringify(iterationMetrics(g, it, itTrajs, Math.min(1, progress))).replace(/"__NaN__"/g, 'NaN') + '\n');
      o.onProgress?.(written, total);
    }
  });
  const baseline =
    o.baseline === false
      ? undefined
      : writeBaseline(join(dir, DEMO_BASELINE_DIR), {
          trajectories: total,
          seed,
          iterations: DEMO_ITERATIONS,
          groups: DEMO_GROUPS,
          rollouts: DEMO_ROLLOUTS,
        });
  // the evaluations give the run a larger edge than its training rollouts, so that the demo's verdict is visible
  const evalLog = writeDemoEvals(dir, { seed, iterations, gain: DEMO_GAIN + 0.05, stream: 0x2545f491 });
  let hubRepo: string | undefined;
  if (o.hubRepo !== false) {
    hubRepo = join(dir, '.hub-repo');
    writeHubRepo(hubRepo, g, creditLog, metricsLog, evalLog);
  }
  if (baseline) writeDemoEvals(baseline.root, { seed, iterations, gain: BASELINE_GAIN, stream: 0x68e31da4 });
  return { creditLog, metricsLog, evalLog, hubRepo, baseline, trajectories: written, iterations, bytes };
}

/** One group slot in this many may hold a format failure where it matters. */
const SMALL_A_SLOT = 41;

/**
 * A few format failures where they can change a sign: in a group of two successes and
 * three failures, an unlabeled failure becomes -1, so the labeled failures' |A| is
 * 0.267 < beta and a large enough c flips them (the card's guarantee assumes binary
 * rewards). Only the reward changes, never what is drawn, so the rest of the demo is as before.
 */
function formatFailureWithSmallA(it: number, grp: number, rewards: number[], labeled: ReadonlySet<number>): void {
  if ((it * DEMO_GROUPS + grp) % SMALL_A_SLOT !== 0) return;
  if (rewards.filter((r) => r === 1).length !== 2 || rewards.filter((r) => r === 0).length !== 3) return;
  const failures = rewards.map((r, i) => (r === 0 ? i : -1)).filter((i) => i >= 0);
  const unlabeled = failures.find((i) => !labeled.has(i));
  if (unlabeled === undefined || !failures.some((i) => labeled.has(i))) return;
  rewards[unlabeled] = -1;
}

function makeTrajectory(
  g: Gen,
  it: number,
  grp: number,
  ro: number,
  task: DemoTask,
  reward: number,
  A: number,
  labeled: boolean,
): DemoTrajectory {
  const succeeded = reward > 0;
  const endsWithDone = succeeded || g.u() < 0.55;
  const nTurns = endsWithDone ? g.int(3, 15) : g.u() < 0.7 ? 15 : g.int(4, 14);
  const turns: DemoTurn[] = [];
  for (let k = 0; k < nTurns; k++) {
    const terminal = endsWithDone && k === nTurns - 1;
    const action = terminal ? doneAction(g) : randomAction(g);
    if (!labeled) {
      turns.push({ action, scores: null, same: null, done: null, candidates: null, c: undefined, At: A, masked: false, fallback: false });
      continue;
    }
    const base = g.normal() * 30;
    // the policy picks slightly better actions than its own average, and more so in
    // trajectories that succeed, increasingly as training goes on (the card's gate)
    const bias = 0.2 + (succeeded ? 0.3 + 0.6 * Math.min(1, it / (DEMO_ITERATIONS - 1)) : 0);
    const candidates = [action];
    const scores: (number | null)[] = [round3(base + g.normal() * QUALITY_SD + bias)];
    const done = [terminal];
    for (let c = 1; c < DEMO_K; c++) {
      const x = g.u();
      if (x < 0.03) {
        candidates.push(doneAction(g));
        scores.push(round3(scores[0]! - 50 + g.normal() * 10));
        done.push(true);
      } else if (x < 0.1 && !terminal) {
        const dup = nearDuplicate(g, action);
        candidates.push(dup);
        scores.push(round3(scores[0]! + g.normal() * 3));
        done.push(false);
      } else {
        let other = randomAction(g);
        while (sameAction(other, action, DEMO_MATCH)) other = randomAction(g);
        candidates.push(other);
        scores.push(round3(base + g.normal() * QUALITY_SD));
        done.push(false);
      }
    }
    const same = candidates.map((cd, i) => i === 0 || sameAction(action, cd, DEMO_MATCH));
    const turn: DemoTurn = { action, candidates, scores, same, done, c: null, At: A, masked: false, fallback: false };
    if (terminal) {
      turn.masked = true;
    } else if (g.u() < 0.0004) {
      turn.fallback = true;
      turn.scores = scores.map(() => null);
      turn.c = 0;
      turn.At = A;
    } else {
      const c = recomputeCredit({ scores, same, done }, DEFAULT_CREDIT).c;
      turn.c = c;
      turn.At = A + DEFAULT_CREDIT.beta * c;
    }
    turns.push(turn);
  }
  return {
    ...recordHead(it, grp, ro, task, reward, A),
    labeled,
    turns,
    missing: 0,
  };
}

const DEMO_MATCH = DEFAULT_MATCH;
/** spread of the RM score between different actions in one state */
const QUALITY_SD = 5.5;

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function serialise(t: DemoTrajectory): string {
  const turns = t.turns.map((u) => {
    if (!t.labeled) return { action: u.action, A_t: u.At };
    const o: Record<string, unknown> = {
      action: u.action,
      candidates: u.candidates,
      scores: u.scores,
      same: u.same,
      done: u.done,
      c: u.c ?? null,
      A_t: u.At,
    };
    if (u.masked) o['masked'] = true;
    if (u.fallback) o['fallback'] = true;
    return o;
  });
  return JSON.stringify({
    iteration: t.iteration,
    group: t.group,
    rollout: t.rollout,
    task_id: t.task_id,
    instruction: t.instruction,
    reward: t.reward,
    A: t.A,
    labeled: t.labeled,
    turns,
  });
}

function iterationMetrics(g: Gen, it: number, trajs: DemoTrajectory[], progress: number): Record<string, number | string> {
  const sums = trajs.map((t) => ({ t, s: summarize(t, DEFAULT_CREDIT, DEMO_MATCH) }));
  const add = (f: (x: (typeof sums)[number]) => number): number => sums.reduce((a, x) => a + f(x), 0);
  const formatFailureGroups = new Set(trajs.filter((t) => t.reward < 0).map((t) => t.group));
  const hasFormatFailure = (t: DemoTrajectory): boolean => formatFailureGroups.has(t.group);
  const credited = add((x) => x.s.creditedTurns);
  const cCount = add((x) => x.s.cCount);
  const sumC = add((x) => x.s.sumC);
  const sumC2 = add((x) => x.s.sumC2);
  const sumA2 = add((x) => x.t.A * x.t.A * x.s.cCount);
  const labeledNotMasked = add((x) => x.s.labeledTurns - x.s.maskedTurns);
  const groups = new Map<number, DemoTrajectory[]>();
  for (const t of trajs) {
    const l = groups.get(t.group);
    if (l) l.push(t);
    else groups.set(t.group, [t]);
  }
  const diffs: number[] = [];
  let allFail = 0;
  let mixed = 0;
  for (const ts of groups.values()) {
    if (ts.every((t) => t.reward <= 0)) allFail++;
    if (!ts.some((t) => t.reward !== ts[0]!.reward)) continue;
    mixed++;
    const mc = (t: DemoTrajectory): number | null => {
      const s = sums.find((x) => x.t === t)!.s;
      return s.cCount > 0 ? s.sumC / s.cCount : null;
    };
    const succ = ts
      .filter((t) => t.labeled && t.reward > 0)
      .map(mc)
      .filter((x): x is number => x !== null);
    const fail = ts
      .filter((t) => t.labeled && t.reward <= 0)
      .map(mc)
      .filter((x): x is number => x !== null);
    if (succ.length && fail.length) diffs.push(mean(succ)! - mean(fail)!);
  }
  const lens = trajs.map((t) => 280 + 90 * progress + t.turns.length * 3 + g.normal() * 15);
  const m: Record<string, number | string> = {
    iteration: it,
    // as a trainer that skips groups with a format failure would log it: 0 where the recomputation finds their flips
    'ws/sign_flip_rate':
      add((x) => (hasFormatFailure(x.t) ? 0 : x.s.signFlips)) /
      Math.max(
        1,
        add((x) => (hasFormatFailure(x.t) ? 0 : x.s.flipBase)),
      ),
    'ws/fallback_rate': add((x) => x.s.fallbackTurns) / Math.max(1, labeledNotMasked),
    'ws/executed_is_argmax': add((x) => x.s.argmaxTurns) / Math.max(1, credited),
    'ws/tau_running': 20 + g.normal() * 1.6,
    'ws/c_mean': sumC / Math.max(1, cCount),
    'ws/rms_beta_c_over_rms_A': Math.sqrt((0.16 * sumC2) / Math.max(1, cCount)) / Math.sqrt(sumA2 / Math.max(1, cCount) || 1),
    'ws/gate_mean_diff': diffs.length ? mean(diffs)! : '__NaN__',
    'ws/gate_groups': diffs.length,
    'ws/reward_mean': mean(trajs.map((t) => t.reward))!,
    'ws/all_fail_groups': allFail,
    'ws/mixed_groups': mixed,
    'ws/response_len_mean': mean(lens)!,
    'ws/truncation_rate': Math.max(0, 0.01 + 0.004 * progress + g.normal() * 0.002),
    'ws/labeled_turns': add((x) => x.s.labeledTurns),
    'ws/credited_turns': credited,
    'ws/masked_turns': add((x) => x.s.maskedTurns),
    'ws/c_rms': Math.sqrt(sumC2 / Math.max(1, cCount)),
    'ws/beta': 0.4,
    'ws/tau': 20,
    'ws/K': DEMO_K,
    'ws/labeled_rollouts_per_group': 2,
    'ws/done_candidate_rate': 0.032 + g.normal() * 0.004,
    'ws/same_action_rate': 0.27 + g.normal() * 0.01,
    'ws/d_mean_vs_done': 49.56 + g.normal() * 3,
    'ws/d_mean_other': -1.52 + g.normal() * 0.5,
    'ws/A_abs_mean': mean(trajs.map((t) => Math.abs(t.A)))!,
    'ws/A_t_abs_mean': mean(trajs.flatMap((t) => t.turns.map((u) => Math.abs(u.At ?? t.A))))!,
    'ws/rm_score_mean': g.normal() * 2,
    'ws/rm_score_std': 30 + g.normal(),
    'ws/rm_latency_s': 1.2 + g.u() * 0.3,
    'rollout/turns_mean': mean(trajs.map((t) => t.turns.length))!,
    'rollout/success_rate': mean(trajs.map((t) => (t.reward > 0 ? 1 : 0)))!,
    'rollout/format_failures': trajs.filter((t) => t.reward < 0).length,
    'rollout/temperature': 0.8,
    'rollout/groups': groups.size,
    'train/loss': 0.05 - 0.02 * progress + g.normal() * 0.005,
    // iteration 17 draws nothing (it once held a NaN), so that every later figure of the demo stays as it was
    'train/grad_norm': it === 17 ? 1 : 0.8 + g.u() * 0.4,
    'train/lr': 1e-6,
    'train/kl': 0.001 + 0.004 * progress + g.u() * 0.001,
    'train/entropy': 0.9 - 0.2 * progress + g.normal() * 0.02,
    'train/clip_frac': 0.02 + g.u() * 0.01,
    'train/ppo_epochs': 2,
    'perf/step_time_s': 610 + g.normal() * 40,
    'perf/rollout_time_s': 420 + g.normal() * 30,
    'perf/tokens_per_s': 5200 + g.normal() * 200,
  };
  return m;
}

function bytesOf(g: Gen, n: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i += 4) b.writeUInt32LE(Math.floor(g.u() * 0x100000000), Math.min(i, n - 4));
  return b;
}

/** The fake Hub repo: resume/ and hf/ iterations with the real file names, a few KB each. */
function writeHubRepo(root: string, g: Gen, creditLog: string, metricsLog: string, evalLog: string): void {
  mkdirSync(join(root, 'resume'), { recursive: true });
  for (const n of DEMO_RESUME_ITERATIONS) {
    const d = join(root, 'resume', iterDirName(n));
    mkdirSync(d, { recursive: true });
    const foreign = n === DEMO_FOREIGN_ITERATION ? DEMO_FOREIGN_METADATA : undefined;
    writeDemoResume(d, (k) => bytesOf(g, k), n === DEMO_BROKEN_ITERATION, foreign);
    writeFileSync(join(d, 'common.pt'), bytesOf(g, 700));
    writeFileSync(
      join(d, 'metadata.json'),
      JSON.stringify({ sharded_backend: 'torch_dist', sharded_backend_version: 1, common_backend: 'torch', iteration: n }),
    );
  }
  writeFileSync(join(root, 'resume', 'latest_checkpointed_iteration.txt'), String(DEMO_LATEST));
  for (const n of DEMO_HF_ITERATIONS) {
    const d = join(root, 'hf', iterDirName(n));
    mkdirSync(d, { recursive: true });
    writeFileSync(
      join(d, 'config.json'),
      JSON.stringify({ architectures: ['Qwen3ForCausalLM'], hidden_size: 2560, num_hidden_layers: 36, torch_dtype: 'bfloat16' }, null, 2),
    );
    writeFileSync(join(d, 'generation_config.json'), JSON.stringify({ temperature: 0.8, do_sample: true }, null, 2));
    writeFileSync(join(d, 'tokenizer.json'), JSON.stringify({ version: '1.0', model: { type: 'BPE' } }));
    writeFileSync(join(d, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 32768 }));
    const shards: Record<string, DemoTensor[]> = {
      'model-00001-of-00002.safetensors': [
        { name: 'model.embed_tokens.weight', shape: [96, 32] },
        { name: 'model.layers.0.mlp.up_proj.weight', shape: [32, 32] },
      ],
      'model-00002-of-00002.safetensors': [{ name: 'lm_head.weight', shape: [96, 32] }],
    };
    const weightMap: Record<string, string> = {};
    for (const [file, tensors] of Object.entries(shards)) {
      writeFileSync(
        join(d, file),
        safetensorsBytes(tensors, (k) => bytesOf(g, k)),
      );
      for (const t of tensors) weightMap[t.name] = file;
    }
    writeFileSync(join(d, 'model.safetensors.index.json'), JSON.stringify({ metadata: { total_size: 14336 }, weight_map: weightMap }));
  }
  mkdirSync(join(root, 'logs'), { recursive: true });
  copyFileSync(creditLog, join(root, 'logs', 'ws_credit_log.jsonl'));
  copyFileSync(metricsLog, join(root, 'logs', 'ws_metrics.jsonl'));
  // the checkpoint evaluations beside the training logs, as a run that evaluates its checkpoints uploads them
  copyFileSync(evalLog, join(root, 'logs', 'eval_log.jsonl'));
  writeFileSync(join(root, 'README.md'), `# ${DEMO_REPO} (demo)\n\nA fake copy of the run's Hub layout, written by \`rlrb demo\`.\n`);
}
