/**
 * The options a run is read with (credit, matching, behaviour tags), one row each: the one place
 * their meaning, default and range are written. The CLI's help and checks, the MCP tools' schemas
 * and the settings (package.json, checked against this by a unit test) all say what this says.
 */
import { DEFAULT_MATCH } from '../credit/actions';
import { DEFAULT_CREDIT } from '../credit/credit';
import { DEFAULT_BEHAVIOUR } from '../behaviour/tags';

export interface NumberOption {
  /** the setting's key under `rlRunBrowser.` */
  setting: string;
  /** the CLI flag without `--` */
  flag: string;
  /** the flag's value in the usage line */
  value: string;
  /** what it is, in a sentence or two (markdown code spans allowed) */
  meaning: string;
  /** the code's default */
  default: number;
  integer: boolean;
  /** inclusive bounds; `above` an exclusive lower bound */
  min?: number;
  above?: number;
  max?: number;
}

export const BETA: NumberOption = {
  setting: 'beta',
  flag: 'beta',
  value: 'B',
  meaning: 'β of `A_t = A + β·c`, used to check the logged `A_t` and the dose.',
  default: DEFAULT_CREDIT.beta,
  integer: false,
  min: -100,
  max: 100,
};

export const TAU: NumberOption = {
  setting: 'tau',
  flag: 'tau',
  value: 'T',
  meaning: 'τ of `c = clip(mean d / τ, −1, +1)`, used to recompute the credit.',
  default: DEFAULT_CREDIT.tau,
  integer: false,
  above: 0,
};

export const CLICK_TOLERANCE: NumberOption = {
  setting: 'clickTolerance',
  flag: 'click-tol',
  value: 'N',
  meaning: 'Canonical matching: two points are the same when |dx| and |dy| are at most this, on the 0..1000 grid (`OWRL_WS_CLICK_TOL`).',
  default: DEFAULT_MATCH.clickTolerance,
  integer: false,
  min: 0,
  max: 1000,
};

export const HORIZON: NumberOption = {
  setting: 'horizon',
  flag: 'horizon',
  value: 'H',
  meaning:
    'Behaviour tags: the horizon H. A trajectory of at least H turns whose last action is not `done` is `truncated`; ' +
    'one of 1 to H − 1 turns is `noDone`.',
  default: DEFAULT_BEHAVIOUR.horizon,
  integer: true,
  min: 1,
  max: 65535,
};

export const THETA: NumberOption = {
  setting: 'theta',
  flag: 'theta',
  value: 'T',
  meaning:
    'Behaviour tags: θ of `creditDisagrees`, a labeled trajectory whose mean logged c is ≤ −θ while it succeeded, ' +
    'or ≥ +θ while it failed.',
  default: DEFAULT_BEHAVIOUR.theta,
  integer: false,
  min: 0,
};

/** Every numeric option of the table, in the order the help lists them. */
export const NUMBER_OPTIONS: readonly NumberOption[] = [BETA, TAU, CLICK_TOLERANCE, HORIZON, THETA];

/** "a whole number from 1 to 65535", "a number above 0", "a number from 0 up". */
export function rangeWords(o: NumberOption): string {
  const kind = o.integer ? 'a whole number' : 'a number';
  if (o.above !== undefined) return `${kind} above ${o.above}${o.max !== undefined ? ` and at most ${o.max}` : ''}`;
  if (o.min !== undefined && o.max !== undefined) return `${kind} from ${o.min} to ${o.max}`;
  if (o.min !== undefined) return `${kind} from ${o.min} up`;
  if (o.max !== undefined) return `${kind} up to ${o.max}`;
  return kind;
}

/** The option's description wherever it is described: its meaning, default and range. */
export function describeOption(o: NumberOption): string {
  return `${o.meaning} Default ${o.default}; ${rangeWords(o)}.`;
}
