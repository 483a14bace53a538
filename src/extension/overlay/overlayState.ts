/** The runs overlaid on a dashboard, as its panel state keeps them: checked on restore, each with a colour that stays its own. */
import type { OverlayEntry } from '../../shared/protocol/metrics';
import { MAX_OVERLAY } from '../../shared/protocol/metrics';

/** Palette indexes: 0 is the primary run's, 1..MAX_OVERLAY the overlaid runs'. */
const COLORS = Array.from({ length: MAX_OVERLAY }, (_v, i) => i + 1);

const isEntry = (v: unknown): v is OverlayEntry =>
  !!v &&
  typeof (v as OverlayEntry).root === 'string' &&
  (v as OverlayEntry).root.length > 0 &&
  (v as OverlayEntry).root.length <= 4096 &&
  COLORS.includes((v as OverlayEntry).color);

/** The saved list (untrusted: a restored page's state), without bad entries, the primary run, repeated runs or colours. */
export function parseOverlay(v: unknown, primary: string): OverlayEntry[] {
  if (!Array.isArray(v)) return [];
  const out: OverlayEntry[] = [];
  for (const e of v.slice(0, 100)) {
    if (out.length >= MAX_OVERLAY) break;
    if (!isEntry(e) || e.root === primary) continue;
    if (out.some((o) => o.root === e.root || o.color === e.color)) continue;
    out.push({ root: e.root, color: e.color });
  }
  return out;
}

/** The list with `roots` added (the runs already there keep their colours; a new one takes the first free colour). */
export function addRuns(list: readonly OverlayEntry[], roots: readonly string[], primary: string): OverlayEntry[] {
  const out = [...list];
  for (const root of roots) {
    if (root === primary || out.some((o) => o.root === root)) continue;
    const color = COLORS.find((c) => !out.some((o) => o.color === c));
    if (color === undefined) break;
    out.push({ root, color });
  }
  return out;
}

export function removeRun(list: readonly OverlayEntry[], root: string): OverlayEntry[] {
  return list.filter((o) => o.root !== root);
}

/** How many more runs fit. */
export function room(list: readonly OverlayEntry[]): number {
  return MAX_OVERLAY - list.length;
}
