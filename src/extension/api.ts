/** What `activate` returns: read-only facts for the in-host tests (never the token itself). */
import type { RunReport } from '../core/report/report';
import type { TrajectoryKey } from '../shared/protocol';
import type { AgentToolsFacts } from './mcp/register';
import type { Services } from './services';
import { TrajectoriesPanel } from './trajectories/trajectoriesPanel';

export interface RlRunBrowserApi {
  runRoots(): string[];
  report(root: string): RunReport | undefined;
  hasStoredToken(): Promise<boolean>;
  settingsTau(): number;
  /** the agent tools registered (src/extension/mcp/register.ts) */
  agentTools: AgentToolsFacts;
  /** the trajectory the browser of `root` shows, when it is open */
  browserSelection(root: string): TrajectoryKey | undefined;
}

export function apiOf(s: Services, agentTools: AgentToolsFacts): RlRunBrowserApi {
  return {
    runRoots: () => s.runs.list().map((l) => l.run.location.root),
    report: (root) => s.runs.get(root)?.run.report()?.report,
    hasStoredToken: () => s.hub.hasStoredToken(),
    settingsTau: () => s.settings().index.credit.tau,
    agentTools,
    browserSelection: (root) => {
      const p = s.panels.find('trajectories', root);
      return p instanceof TrajectoriesPanel ? p.selected : undefined;
    },
  };
}
