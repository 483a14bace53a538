/**
 * Section 7's figures of a whole run as its panels show them (the tags report and each tag's
 * change over training), computed from the index and kept with the saved indexes
 * (`Run.figures`), so that opening a panel of an unchanged run does not tally its rows again.
 */
import type { Run } from '../run/run';
import type { CreditIndex } from '../log/creditIndex';
import { behaviourReport } from './report';
import type { BehaviourReport } from './report';
import { behaviourChange } from './change';
import type { TagChange } from './change';
import { TAG_NAMES } from './tags';
import type { TagName } from './tags';

export interface BehaviourFigures {
  report: BehaviourReport;
  change: Record<TagName, TagChange | null>;
}

export function behaviourFigures(index: CreditIndex): BehaviourFigures {
  const o = index.behaviourOptions;
  return { report: behaviourReport(index, {}, o), change: behaviourChange(index, o) };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
const num = (v: unknown): boolean => v === null || typeof v === 'number';

/** A kept value read back: the shape `behaviourFigures` returns. */
export function isBehaviourFigures(v: unknown): v is BehaviourFigures {
  if (!isObject(v) || !isObject(v['report']) || !isObject(v['change'])) return false;
  const r = v['report'];
  const tags = r['tags'];
  const change = v['change'];
  return (
    typeof r['trajectories'] === 'number' &&
    num(r['collapsedTurnRate']) &&
    isObject(tags) &&
    Array.isArray(r['perIteration']) &&
    r['perIteration'].every((i) => isObject(i) && typeof i['iteration'] === 'number' && isObject(i['rates'])) &&
    TAG_NAMES.every((t) => (tags[t] === null || isObject(tags[t])) && (change[t] === null || isObject(change[t])))
  );
}

/** The run's section-7 figures as of its last update (kept, or computed); undefined without a credit log. */
export async function runBehaviour(run: Run): Promise<BehaviourFigures | undefined> {
  const index = run.credit;
  if (!index) return undefined;
  return run.figures('behaviour', { options: index.behaviourOptions }, isBehaviourFigures, () => behaviourFigures(index));
}
