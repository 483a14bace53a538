/**
 * `rlrb mcp [--root DIR]... [--http HOST:PORT [--token-file FILE]]`: the MCP server over the
 * CLI's answers (src/cli/mcp). Over HTTP every request needs the server's bearer token: read
 * from `--token-file` or `RLRB_MCP_TOKEN`, else made at start and printed on stderr.
 */
import { UsageError, listFlag, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { ToolError } from '../mcp/limits';
import { realRoots } from '../mcp/roots';
import type { ServerConfig } from '../mcp/opener';
import { writeErr } from '../output/safeText';
import { repoProblem } from '../open/repoId';
import { readSmallFile } from '../open/indexOptions';

/** The token over HTTP, and whether it was made here (then it is printed). */
function httpToken(a: ParsedArgs, newToken: () => string): { token: string; made: boolean } {
  const file = stringFlag(a, 'token-file');
  const given = file !== undefined ? readSmallFile(file, 'the token file', 4096).trim() : process.env['RLRB_MCP_TOKEN']?.trim();
  if (given === undefined || given === '') {
    if (file !== undefined) throw new UsageError(`--token-file ${file}: the file is empty`);
    return { token: newToken(), made: true };
  }
  if (given.length < 16 || /\s/.test(given))
    throw new UsageError(`${file !== undefined ? `--token-file ${file}` : 'RLRB_MCP_TOKEN'}: a token is at least 16 characters, no spaces`);
  return { token: given, made: false };
}

/**
 * A client that goes away mid-answer closes stdout: the write fails with EPIPE. That ends the
 * session (as stdin closing does), never with an uncaught exception.
 */
function endOnBrokenPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') process.exit(0);
    writeErr(`rlrb mcp: stdout: ${e.message}\n`);
    process.exit(1);
  });
}

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
  // the MCP SDK and zod are loaded here, not when the CLI starts: every other command would pay for them
  const { parseListen, serveHttp, newToken } = await import('../mcp/http');
  const listen = stringFlag(a, 'http');
  const where = listen !== undefined ? parseListen(listen) : undefined;
  const c = config(a);
  if (where === undefined && a.flags.has('token-file')) throw new UsageError('--token-file goes with --http');
  if (where !== undefined) {
    const { token, made } = httpToken(a, newToken);
    const { port } = await serveHttp(c, where, token);
    const host = where.host.includes(':') ? `[${where.host}]` : where.host;
    writeErr(`rlrb mcp: serving http://${host}:${port}/mcp (roots: ${c.roots.join(', ')})\n`);
    if (made) writeErr(`rlrb mcp: bearer token (send "Authorization: Bearer <token>"): ${token}\n`);
  } else {
    endOnBrokenPipe();
    const [{ StdioServerTransport }, { createServer }, { connectServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../mcp/server'),
      import('../mcp/connect'),
    ]);
    await connectServer(createServer(c), new StdioServerTransport());
  }
  // served until stdin closes (stdio) or the process is stopped (http)
  await new Promise<void>(() => undefined);
  return 0;
}

export const MCP: Command = {
  usage: 'mcp [--root DIR]... [--repo OWNER/NAME]... [--http HOST:PORT [--token-file FILE]] [--endpoint URL] [--no-cache]',
  about: 'an MCP server (stdio; --http: streamable HTTP on a loopback address) answering as report/compare/tags/show --json',
  flags: {
    root: { type: 'string', multiple: true },
    repo: { type: 'string', multiple: true },
    http: 'string',
    'token-file': 'string',
    endpoint: 'string',
    'no-cache': 'boolean',
  },
  run,
};
