/**
 * The agent tools: the MCP server registered with VS Code's agent and the `open_in_viewer`
 * language model tool; `rlRunBrowser.agentTools.enabled` (a user setting) turns both off.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errorMessage';
import { SECTION } from '../settings';
import type { Services } from '../services';
import { registerMcpProvider } from './mcpProvider';
import { OPEN_IN_VIEWER, openInViewerTool } from './openInViewerTool';

export const AGENT_TOOLS_SETTING = 'agentTools.enabled';

/** What was registered, for the in-host check (`RlRunBrowserApi.agentTools`). */
export interface AgentToolsFacts {
  /** the MCP server definitions the editor gets; undefined when the provider is not registered */
  mcpServers: (() => Promise<object[]>) | undefined;
  openInViewer: boolean;
}

export const agentToolsFacts: AgentToolsFacts = { mcpServers: undefined, openInViewer: false };

/** The setting at the user level only: a workspace cannot turn on what the user turned off. */
function enabled(): boolean {
  const v = vscode.workspace.getConfiguration(SECTION).inspect<boolean>(AGENT_TOOLS_SETTING)?.globalValue;
  return v !== false;
}

export function register(ctx: vscode.ExtensionContext, s: Services): void {
  const changed = new vscode.EventEmitter<void>();
  ctx.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (
        e.affectsConfiguration(`${SECTION}.${AGENT_TOOLS_SETTING}`) ||
        e.affectsConfiguration(`${SECTION}.runFolders`) ||
        e.affectsConfiguration(`${SECTION}.repos`) ||
        e.affectsConfiguration(`${SECTION}.endpoint`)
      )
        changed.fire();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
  );
  const provider = registerMcpProvider(ctx, s, enabled, changed.event);
  if (provider) ctx.subscriptions.push(provider.disposable);
  agentToolsFacts.mcpServers = provider?.provide;
  try {
    ctx.subscriptions.push(vscode.lm.registerTool(OPEN_IN_VIEWER, openInViewerTool(s, enabled)));
    agentToolsFacts.openInViewer = true;
  } catch (e) {
    s.out.info(`agent tools: ${OPEN_IN_VIEWER} is not registered: ${errorMessage(e)}`);
  }
}
