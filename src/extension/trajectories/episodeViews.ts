/** The presenters of eval episodes in the trajectory browser: core's episodes and tag bits as the wire's rows and detail. */
import type { EvalEpisode, EvalEpisodeView } from '../../core/eval/evalLog';
import { tagNames } from '../../core/behaviour/tags';
import { toolName } from '../../core/credit/actions';
import type { EpisodeDetailView, EpisodeRowView } from '../../shared/protocol/trajectories';

/** Episode `episode` of the log (its index), with its tag bits. */
export function episodeRowView(e: EvalEpisode, episode: number, bits: number): EpisodeRowView {
  return { episode, iteration: e.iteration, task: e.task, sample: e.sample, reward: e.reward, turns: e.turns, tags: tagNames(bits) };
}

/** The episode read back, with its tag bits and its turns' repeat and cycle marks (one per turn). */
export function episodeDetailView(
  e: EvalEpisode,
  episode: number,
  view: EvalEpisodeView,
  bits: number,
  marks: readonly { repeat: boolean; cycle: boolean }[],
): EpisodeDetailView {
  return {
    ...episodeRowView(e, episode, bits),
    // the line read now is the truth: its reward and turns as the file holds them
    reward: view.reward,
    turns: view.turns.length,
    line: view.line,
    instruction: view.instruction ?? null,
    turnList: view.turns.map((t, i) => ({
      index: t.index,
      action: t.action === '' ? null : t.action,
      kind: t.action === '' ? '' : toolName(t.action),
      repeat: marks[i]?.repeat ?? false,
      cycle: marks[i]?.cycle ?? false,
    })),
  };
}
