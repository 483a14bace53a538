/**
 * How VS Code launches the bundled MCP server (`dist/cli.js mcp`): with the editor's own binary
 * run as Node (ELECTRON_RUN_AS_NODE, as the index workers are), the run folders as `--root`s,
 * the followed repos as `--repo`s, and the endpoint and token in the environment only (never an
 * argument: arguments are visible to every process of the machine, and are shown by the editor).
 */

/** What one launch needs. */
export interface LaunchInput {
  /** the editor's binary (`process.execPath`) */
  execPath: string;
  /** the absolute path of dist/cli.js */
  cli: string;
  roots: readonly string[];
  repos: readonly string[];
  endpoint: string | undefined;
  token: string | undefined;
}

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function serverLaunch(i: LaunchInput): Launch {
  const roots = [...new Set(i.roots)];
  const args = [i.cli, 'mcp', ...roots.flatMap((r) => ['--root', r]), ...[...new Set(i.repos)].flatMap((r) => ['--repo', r])];
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
  if (i.endpoint !== undefined) env['HF_ENDPOINT'] = i.endpoint;
  if (i.token !== undefined) env['HF_TOKEN'] = i.token;
  return { command: i.execPath, args, env };
}
