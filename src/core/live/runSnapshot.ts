/** A run's `LiveSnapshot`: the report's per-iteration twins (section 4) as `Run.report()` computes them, read once a change was seen. */
import { accumulate } from '../report/accumulate';
import type { Run } from '../run/run';
import type { CheckpointState } from './checkpoints';
import type { LiveIteration, LiveSnapshot } from './liveEvents';

/** The credit log's iterations with their twins, and which are complete. */
export function liveIterations(run: Run): LiveIteration[] {
  const full = run.report();
  const idx = run.credit;
  if (!full || !idx) return [];
  // the counts the checks need beyond the report's rates come from the same sums the rates are made of
  const acc = accumulate(idx).perIteration;
  const logged = new Set(run.metrics?.getTable().iterations ?? []);
  const last = full.perIteration[full.perIteration.length - 1]?.iteration;
  return full.perIteration.map((p) => {
    const a = acc.get(p.iteration)!;
    return {
      iteration: p.iteration,
      trajectories: p.trajectories,
      reward: p.rewardMean,
      complete: p.iteration !== last || logged.has(p.iteration),
      signFlipRate: p.signFlipRate,
      fallbackRate: p.fallbackRate,
      executedIsArgmaxRate: p.executedIsArgmaxRate,
      creditedTurns: a.credited,
      sumC: a.sumC,
      cCount: a.cCount,
      disagreements: full.twinDisagreements.filter((d) => d.iteration === p.iteration),
    };
  });
}

/** The snapshot of `run` as of its last update, with the checkpoints' states asked of the probe. */
export function liveSnapshot(run: Run, checkpoints: readonly CheckpointState[]): LiveSnapshot {
  const evals = run.evals ? (run.evalSummary()?.iterations ?? []) : [];
  return {
    iterations: liveIterations(run),
    checkpoints,
    evaluations: evals.map((e) => ({ iteration: e.iteration, tasks: e.tasks, samples: e.samples, success: e.success })),
  };
}
