/** `rlrb mcp [--root DIR]... [--http HOST:PORT]`: the MCP server over the CLI's answers (src/cli/mcp). */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { UsageError, listFlag, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { parseListen, serveHttp } from '../mcp/http';
import { ToolError } from '../mcp/limits';
import { realRoots } from '../mcp/roots';
import { createServer } from '../mcp/server';
import { connectServer } from '../mcp/connect';
import type { ServerConfig } from '../mcp/opener';
import { writeErr } from '../output/safeText';
import { repoProblem } from '../open/repoId';

function config(a: ParsedArgs): ServerConfig {
  let roots: string[];
  try {
    roots = realRoots(listFlag(a, 'root'));
  } catch (e) {
    if (e instanceof ToolError) throw new UsageError(e.message);
    throw e;
  }
  const endpoint = stringFlag(a, 'endpoint');
  const repos = listFlag(a, 'repo');
  for (const r of repos) {
    const bad = repoProblem(r);
    if (bad !== undefined) throw new UsageError(`--repo ${r}: ${bad}`);
  }
  return { roots, repos, ...(endpoint !== undefined ? { endpoint } : {}), ...(a.flags.has('no-cache') ? { noCache: true } : {}) };
}

async function run(a: ParsedArgs): Promise<number> {
  if (a.positional.length > 1) throw new UsageError(`usage: rlrb ${MCP.usage}`);
  const listen = stringFlag(a, 'http');
  const where = listen !== undefined ? parseListen(listen) : undefined;
  const c = config(a);
  if (where !== undefined) {
    const { port } = await serveHttp(c, where);
    const host = where.host.includes(':') ? `[${where.host}]` : where.host;
    writeErr(`rlrb mcp: serving http://${host}:${port}/mcp (roots: ${c.roots.join(', ')})\n`);
  } else {
    await connectServer(createServer(c), new StdioServerTransport());
  }
  // served until stdin closes (stdio) or the process is stopped (http)
  await new Promise<void>(() => undefined);
  return 0;
}

export const MCP: Command = {
  usage: 'mcp [--root DIR]... [--repo OWNER/NAME]... [--http HOST:PORT] [--endpoint URL] [--no-cache]',
  about: 'an MCP server (stdio; --http: streamable HTTP on a loopback address) answering as report/compare/tags/show --json',
  flags: {
    root: { type: 'string', multiple: true },
    repo: { type: 'string', multiple: true },
    http: 'string',
    endpoint: 'string',
    'no-cache': 'boolean',
  },
  run,
};
