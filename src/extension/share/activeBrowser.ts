/** The trajectory browser a shortcut or a palette command acts on: the active one, else the only one open. */
import type { Services } from '../services';
import { TrajectoriesPanel } from '../trajectories/trajectoriesPanel';

export function activeBrowser(s: Services): TrajectoriesPanel | undefined {
  const open = s.runs
    .list()
    .map((l) => s.panels.find('trajectories', l.run.location.root))
    .filter((p): p is TrajectoriesPanel => p instanceof TrajectoriesPanel);
  return open.find((p) => p.panel.active) ?? (open.length === 1 ? open[0] : undefined);
}
