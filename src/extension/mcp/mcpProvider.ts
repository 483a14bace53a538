/**
 * The MCP server registered with VS Code's agent (`vscode.lm.registerMcpServerDefinitionProvider`,
 * stable from VS Code 1.101; the proposal `mcpConfigurationProvider` in 1.100, which the editor
 * must enable with `--enable-proposed-api`). The API is feature-detected: without it, or when the
 * editor refuses it, one line is logged and the rest of the extension goes on.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errorMessage';
import type { Services } from '../services';
import { serverLaunch } from './launch';

/** The id in package.json's `mcpServerDefinitionProviders` (and 1.100's `modelContextServerCollections`). */
export const MCP_PROVIDER_ID = 'rlRunBrowser.mcp';
export const MCP_SERVER_LABEL = 'RL Run Browser';

/** The part of the (then proposed) API this uses: @types/vscode 1.100 has none of it. */
interface StdioDefinitionClass {
  new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string): object;
}
interface McpProvider {
  onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  /** the 1.100 proposal's name of the same event */
  onDidChangeServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<object[]>;
  resolveMcpServerDefinition?(server: object, token: vscode.CancellationToken): Promise<object | undefined>;
}
type Register = (id: string, provider: McpProvider) => vscode.Disposable;

/** The API, when this editor has it. */
function api(): { register: Register; Stdio: StdioDefinitionClass } | undefined {
  const lm = vscode.lm as unknown as { registerMcpServerDefinitionProvider?: Register };
  const Stdio = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinitionClass }).McpStdioServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof Stdio !== 'function') return undefined;
  return { register: lm.registerMcpServerDefinitionProvider.bind(vscode.lm), Stdio };
}

/** The run folders the server may read: the workspace folders, `runFolders` and the downloaded logs. */
export function serverRoots(s: Services): string[] {
  return [
    ...(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    ...s.settings().runFolders,
    ...s.destinations.fetchedLogs(),
  ];
}

/** A registered provider: what to dispose, and the definitions it gives the editor (for the in-host check). */
export interface RegisteredProvider {
  disposable: vscode.Disposable;
  provide: () => Promise<object[]>;
}

/**
 * Registers the provider; `enabled` is read on each request (off: no server). Undefined when
 * this editor has no such API or refuses it (logged once).
 */
export function registerMcpProvider(
  ctx: vscode.ExtensionContext,
  s: Services,
  enabled: () => boolean,
  changed: vscode.Event<void>,
): RegisteredProvider | undefined {
  const found = api();
  if (!found) {
    s.out.info('agent tools: this editor has no MCP server provider API (VS Code 1.101+); the MCP server is not registered');
    return undefined;
  }
  const cli = vscode.Uri.joinPath(ctx.extensionUri, 'dist', 'cli.js').fsPath;
  const v = (ctx.extension.packageJSON as { version?: unknown }).version;
  const version = typeof v === 'string' ? v : '0';
  const definition = (token?: string, endpoint?: string): object => {
    const roots = serverRoots(s);
    const l = serverLaunch({ execPath: process.execPath, cli, roots, repos: s.settings().repos, endpoint, token });
    return new found.Stdio(MCP_SERVER_LABEL, l.command, l.args, l.env, version);
  };
  const provider: McpProvider = {
    onDidChangeMcpServerDefinitions: changed,
    onDidChangeServerDefinitions: changed,
    // no token here: it is put in the environment only when the editor starts the server
    provideMcpServerDefinitions: () => Promise.resolve(enabled() ? [definition()] : []),
    resolveMcpServerDefinition: async () => {
      if (!enabled()) return undefined;
      const conn = await s.hub.connection();
      return definition(conn.token, conn.endpoint);
    },
  };
  try {
    const disposable = found.register(MCP_PROVIDER_ID, provider);
    s.out.info(`agent tools: MCP server "${MCP_SERVER_LABEL}" registered (${MCP_PROVIDER_ID})`);
    return { disposable, provide: () => provider.provideMcpServerDefinitions(new vscode.CancellationTokenSource().token) };
  } catch (e) {
    s.out.info(`agent tools: the MCP server is not registered: ${errorMessage(e)}`);
    return undefined;
  }
}
