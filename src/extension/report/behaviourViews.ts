/** The report's behaviour section (docs/format.md section 7): core's `behaviourReport` and `behaviourChange` as rows for the page. */
import type { CreditIndex } from '../../core/log/creditIndex';
import { behaviourFigures } from '../../core/behaviour/behaviourFigures';
import type { BehaviourFigures } from '../../core/behaviour/behaviourFigures';
import { TAG_NAMES } from '../../shared/shapes';
import { TAG_WORDS } from '../../shared/tagWords';
import type { ReportBehaviourView } from '../../shared/protocol/report';

/** `figures`: the run's kept section-7 figures (`runBehaviour`), else computed from the index now. */
export function reportBehaviourView(index: CreditIndex, figures: BehaviourFigures = behaviourFigures(index)): ReportBehaviourView {
  const o = index.behaviourOptions;
  const b = figures.report;
  const change = figures.change;
  return {
    trajectories: b.trajectories,
    horizon: o.horizon,
    theta: o.theta,
    collapsedTurnRate: b.collapsedTurnRate,
    rows: TAG_NAMES.map((tag) => {
      const f = b.tags[tag];
      const c = change[tag];
      return {
        tag,
        label: TAG_WORDS[tag].label,
        meaning: TAG_WORDS[tag].meaning,
        count: f ? f.count : null,
        rate: f ? f.rate : null,
        successTagged: f ? f.successTagged : null,
        successUntagged: f ? f.successUntagged : null,
        first: c ? c.first : null,
        last: c ? c.last : null,
        change: c ? c.change : null,
      };
    }),
  };
}
