/**
 * A run's credit settings (beta, tau) as the run itself states them: the last value its metrics
 * log holds under `ws/beta` / `beta` (`ws/tau` / `tau`), else its Hub card's knob table
 * (`| β | 0.4 |`, `| tau | 20.0 |`) or a `β = 0.4` in its text. Null where neither says.
 */
import type { MetricsTable } from '../log/metricsIndex';

export interface RunSettings {
  beta: number | null;
  tau: number | null;
  /** where each figure came from */
  betaFrom: SettingSource;
  tauFrom: SettingSource;
}

export type SettingSource = 'metrics log' | 'card' | null;

const METRIC_NAMES = { beta: ['ws/beta', 'beta', 'train/beta'], tau: ['ws/tau', 'tau', 'train/tau'] } as const;
const CARD_NAMES = { beta: '(?:β|beta)', tau: '(?:τ|tau)' } as const;

/** The last finite value of the first of `names` the table holds. */
function lastLogged(table: MetricsTable | undefined, names: readonly string[]): number | null {
  if (!table) return null;
  for (const name of names) {
    const v = table.values(name);
    if (!v) continue;
    for (let i = v.length - 1; i >= 0; i--) if (Number.isFinite(v[i]!)) return v[i]!;
  }
  return null;
}

const NUMBER = '([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)';

/** The knob's value in a card: a table row `| β | 0.4 |`, else `β = 0.4` / `beta: 0.4` in the text. */
export function cardSetting(card: string, name: 'beta' | 'tau'): number | null {
  const knob = CARD_NAMES[name];
  const row = new RegExp(`^\\s*\\|?\\s*${knob}\\s*\\|\\s*${NUMBER}\\s*\\|`, 'imu').exec(card);
  const said = row ?? new RegExp(`(?<![\\p{L}\\w])${knob}\\s*[=:]\\s*${NUMBER}`, 'iu').exec(card);
  const v = said ? Number(said[1]) : NaN;
  return Number.isFinite(v) ? v : null;
}

export function runSettings(table: MetricsTable | undefined, card: string | undefined): RunSettings {
  const pick = (name: 'beta' | 'tau'): [number | null, SettingSource] => {
    const logged = lastLogged(table, METRIC_NAMES[name]);
    if (logged !== null) return [logged, 'metrics log'];
    const carded = card === undefined ? null : cardSetting(card, name);
    return carded !== null ? [carded, 'card'] : [null, null];
  };
  const [beta, betaFrom] = pick('beta');
  const [tau, tauFrom] = pick('tau');
  return { beta, tau, betaFrom, tauFrom };
}
