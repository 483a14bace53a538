/**
 * `rlrb tags --json`: section 7's figures over a run's index, from its columns alone
 * (no re-read): each tag's count, rate and the success of tagged against untagged
 * trajectories, the collapsed-turn rate, and the same per iteration.
 */
import type { CreditIndex } from '../log/creditIndex';
import { LABEL_TAGS, TAG_NAMES } from './tags';
import type { BehaviourOptions, TagName } from './tags';

export interface TagFigures {
  count: number;
  /** count / trajectories; null without trajectories */
  rate: number | null;
  /** fraction with reward > 0 among the tagged; null when none is */
  successTagged: number | null;
  /** among the untagged; null when every one is tagged */
  successUntagged: number | null;
}

export interface IterationBehaviour {
  iteration: number;
  trajectories: number;
  /** each tag's rate at this iteration (null: a label tag of a run without labels) */
  rates: Record<TagName, number | null>;
  collapsedTurnRate: number | null;
}

export interface BehaviourReport {
  trajectories: number;
  /** null: a tag that needs labeled turns, in a run without any */
  tags: Record<TagName, TagFigures | null>;
  /** collapsed turns / credited turns with a non-empty comparison set; null when there is none */
  collapsedTurnRate: number | null;
  perIteration: IterationBehaviour[];
}

export interface BehaviourWindow {
  from?: number;
  to?: number;
  /** the window is exactly these iterations (a comparison's common iterations) */
  iterations?: ReadonlySet<number>;
}

/** Counts of one set of trajectories (a run's window, or one iteration). */
export class TagTally {
  trajectories = 0;
  successes = 0;
  readonly tagged = new Float64Array(TAG_NAMES.length);
  readonly taggedSuccesses = new Float64Array(TAG_NAMES.length);
  collapsedTurns = 0;
  comparedTurns = 0;

  add(bits: number, success: boolean, collapsedTurns: number, comparedTurns: number): void {
    this.trajectories++;
    if (success) this.successes++;
    for (let k = 0; k < TAG_NAMES.length; k++) {
      if ((bits & (1 << k)) === 0) continue;
      this.tagged[k]!++;
      if (success) this.taggedSuccesses[k]!++;
    }
    this.collapsedTurns += collapsedTurns;
    this.comparedTurns += comparedTurns;
  }

  figures(k: number): TagFigures {
    const n = this.trajectories;
    const t = this.tagged[k]!;
    const ts = this.taggedSuccesses[k]!;
    return {
      count: t,
      rate: n > 0 ? t / n : null,
      successTagged: t > 0 ? ts / t : null,
      successUntagged: n - t > 0 ? (this.successes - ts) / (n - t) : null,
    };
  }

  collapsedTurnRate(labels: boolean): number | null {
    return labels && this.comparedTurns > 0 ? this.collapsedTurns / this.comparedTurns : null;
  }
}

const inWindow = (it: number, w: BehaviourWindow): boolean =>
  (w.iterations === undefined || w.iterations.has(it)) && (w.from === undefined || it >= w.from) && (w.to === undefined || it <= w.to);

/** The tallies of a run's window: in all, and per iteration (in order). */
export function tallyIndex(
  index: CreditIndex,
  w: BehaviourWindow,
  o: BehaviourOptions,
): { all: TagTally; byIteration: Map<number, TagTally> } {
  const c = index.columns;
  const all = new TagTally();
  const byIteration = new Map<number, TagTally>();
  for (let i = 0; i < index.size; i++) {
    if (!index.counted(i)) continue;
    const it = c.iteration[i]!;
    if (!inWindow(it, w)) continue;
    const bits = index.tags(i, o);
    const success = c.reward[i]! > 0;
    all.add(bits, success, c.collapsedTurns[i]!, c.comparedTurns[i]!);
    let t = byIteration.get(it);
    if (!t) byIteration.set(it, (t = new TagTally()));
    t.add(bits, success, c.collapsedTurns[i]!, c.comparedTurns[i]!);
  }
  return { all, byIteration: new Map([...byIteration].sort((a, b) => a[0] - b[0])) };
}

const isLabelTag = (name: TagName): boolean => LABEL_TAGS.includes(name);

/** Section 7's `rlrb tags --json` object over `[from, to]`, with horizon and theta `o` (the index's own unless given). */
export function behaviourReport(
  index: CreditIndex,
  w: BehaviourWindow = {},
  o: BehaviourOptions = index.behaviourOptions,
): BehaviourReport {
  const labels = index.hasLabeledTurns();
  const { all, byIteration } = tallyIndex(index, w, o);
  const tags = {} as Record<TagName, TagFigures | null>;
  TAG_NAMES.forEach((name, k) => (tags[name] = !labels && isLabelTag(name) ? null : all.figures(k)));
  const perIteration: IterationBehaviour[] = [];
  for (const [iteration, t] of byIteration) {
    const rates = {} as Record<TagName, number | null>;
    TAG_NAMES.forEach((name, k) => (rates[name] = !labels && isLabelTag(name) ? null : t.figures(k).rate));
    perIteration.push({ iteration, trajectories: t.trajectories, rates, collapsedTurnRate: t.collapsedTurnRate(labels) });
  }
  return { trajectories: all.trajectories, tags, collapsedTurnRate: all.collapsedTurnRate(labels), perIteration };
}
