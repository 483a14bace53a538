/**
 * The trajectory browser's second source: a checkpoint's eval episodes (docs/format.md
 * section 8, the query's `evalIteration`). The episodes, their tags and their text stay in
 * the host; the page gets one page of rows at a time and one episode's detail, as for
 * training rollouts.
 */
import type { TrajectoryQuery } from '../../shared/shapes';
import type { Run } from '../../core/run/run';
import type { EvalLog } from '../../core/eval/evalLog';
import { EpisodeTags, episodeTurnMarks } from '../../core/eval/episodeTags';
import { episodeTextHits, queryEpisodes, sourceEpisodes } from '../../core/eval/episodeQuery';
import { DEFAULT_BEHAVIOUR } from '../../core/behaviour/tags';
import { errorMessage } from '../../core/errorMessage';
import type { EpisodeDetailView, PageMessage } from '../../shared/protocol/trajectories';
import { querySpec } from './queryViews';
import { episodeDetailView, episodeRowView } from './episodeViews';
import { episodeFields, firstMatch } from '../../core/run/textMatch';

/** What the source answers: a page and where the episode asked for is in the query's rows (-1: not), or why there is none. */
export type EpisodePage = { ok: true; page: Omit<PageMessage, 'type' | 'label' | 'runName'>; at: number } | { ok: false; message: string };

export class EpisodeSource {
  private tags: EpisodeTags | undefined;
  private text: { needle: string; version: number; hits: Set<number> } | undefined;

  constructor(readonly run: Run) {}

  /** The run's evaluation log, read (a log read in place on the Hub is fetched now, once). */
  private async log(): Promise<EvalLog | undefined> {
    const log = this.run.evals;
    if (log && this.run.location.remote?.evals && log.version === 0) await this.run.updateEvals();
    return log;
  }

  private tagsOf(log: EvalLog): EpisodeTags {
    if (!this.tags) this.tags = new EpisodeTags(log, this.run.options.match, this.run.options.behaviour ?? DEFAULT_BEHAVIOUR);
    return this.tags;
  }

  /** One page of the query's episodes, and the place of episode `find` among them. */
  async page(q: TrajectoryQuery, offset: number, limit: number, find = -1): Promise<EpisodePage> {
    let log: EvalLog | undefined;
    try {
      log = await this.log();
    } catch (e) {
      return { ok: false, message: `The evaluation log could not be read: ${errorMessage(e)}` };
    }
    if (!log) return { ok: false, message: 'This run has no evaluation log (logs/eval_log.jsonl): no eval episodes to show.' };
    const spec = querySpec(q);
    const source = sourceEpisodes(log.episodes, spec.filter);
    const tags = this.tagsOf(log);
    await tags.ensure(source);
    const needle = spec.filter.text?.trim();
    let hits: Set<number> | undefined;
    if (needle) {
      if (this.text?.needle !== needle || this.text.version !== log.version)
        this.text = { needle, version: log.version, hits: await episodeTextHits(log, source, needle) };
      hits = this.text.hits;
    }
    const bits = (i: number): number => tags.get(i) ?? 0;
    const rows = queryEpisodes(log.episodes, spec, bits, hits);
    const episodes = rows.slice(offset, offset + limit).map((i) => episodeRowView(log.episodes[i]!, i, bits(i)));
    // where the text is, read back from each episode of the page
    if (needle)
      for (const e of episodes)
        e.match = await log.read(e.episode).then(
          (v) => firstMatch(episodeFields(v), needle),
          () => null,
        );
    const page = { query: q, total: rows.length, size: source.length, offset, rows: [], episodes, searching: false };
    return { ok: true, page, at: find < 0 ? -1 : rows.indexOf(find) };
  }

  /** Episode `i` read back, tagged and marked. */
  async detail(i: number): Promise<EpisodeDetailView> {
    const log = await this.log();
    const e = log?.episodes[i];
    if (!log || !e) throw new RangeError(`no evaluation episode ${i} in this run`);
    const view = await log.read(i);
    const tags = this.tagsOf(log);
    await tags.ensure([i]);
    return episodeDetailView(e, i, view, tags.get(i) ?? 0, episodeTurnMarks(view, this.run.options.match));
  }

  dispose(): void {
    this.tags?.dispose();
  }
}
