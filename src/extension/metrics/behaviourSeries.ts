/**
 * The dashboard's Behaviour group (docs/format.md section 7): each tag's rate per iteration
 * and the collapsed-turn rate, as a metrics table of the run's index (core's
 * `behaviourReport`), charted and overlaid like any metric; a point opens that iteration's
 * trajectories with the tag.
 */
import type { CreditIndex } from '../../core/log/creditIndex';
import { behaviourReport } from '../../core/behaviour/report';
import type { BehaviourReport } from '../../core/behaviour/report';
import { tableOf } from '../../core/log/metricsIndex';
import type { MetricsTable } from '../../core/log/metricsIndex';
import { isTagName } from '../../core/behaviour/tags';
import { TAG_NAMES } from '../../shared/shapes';
import type { TagName } from '../../shared/shapes';
import { TAG_WORDS } from '../../shared/tagWords';
import type { Jump } from '../report/jumpTable';

/** The group's name (the section's heading) and the prefix of its charts' names. */
export const BEHAVIOUR_GROUP = 'Behaviour';
export const COLLAPSE_SERIES = `${BEHAVIOUR_GROUP}/collapsed turn rate`;
const PREFIX = `${BEHAVIOUR_GROUP}/`;
const RATE = ' rate';

export const tagSeriesName = (t: TagName): string => `${PREFIX}${t}${RATE}`;

/** The tag a chart of the group is about (the collapse rate: `collapsed`), or undefined for any other metric. */
export function seriesTag(name: string): TagName | undefined {
  if (name === COLLAPSE_SERIES) return 'collapsed';
  if (!name.startsWith(PREFIX) || !name.endsWith(RATE)) return undefined;
  const t = name.slice(PREFIX.length, -RATE.length);
  return isTagName(t) ? t : undefined;
}

/**
 * Per iteration: every tag's rate (the label tags left out for a run without labeled turns) and
 * the collapsed-turn rate; `b`: the run's kept section-7 report (`runBehaviour`), else computed now.
 */
export function behaviourTable(index: CreditIndex, b: BehaviourReport = behaviourReport(index)): MetricsTable {
  const its = b.perIteration;
  const column = (f: (i: (typeof its)[number]) => number | null): Float64Array =>
    Float64Array.from(its, (i) => {
      const v = f(i);
      return v === null ? NaN : v;
    });
  const series = TAG_NAMES.filter((t) => b.tags[t] !== null).map((t) => ({ name: tagSeriesName(t), values: column((i) => i.rates[t]) }));
  if (b.collapsedTurnRate !== null) series.push({ name: COLLAPSE_SERIES, values: column((i) => i.collapsedTurnRate) });
  return tableOf(
    its.map((i) => i.iteration),
    series,
  );
}

/** A click on a point of the group: that iteration's trajectories with the chart's tag; undefined for another metric. */
export function behaviourJump(metric: string, iteration: number): Jump | undefined {
  const t = seriesTag(metric);
  if (!t) return undefined;
  return {
    label: `${metric} @ ${iteration}: trajectories tagged ${TAG_WORDS[t].label}`,
    spec: { filter: { iterationMin: iteration, iterationMax: iteration, tags: [t] }, sort: [] },
  };
}
