/** Connects the server to a transport, every tool error it sends made one line (the SDK joins argument problems with newlines). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { safeLine } from '../output/safeText';

interface ErrorResult {
  isError: true;
  content: { type: string; text?: string }[];
}

function isErrorResult(r: unknown): r is ErrorResult {
  return typeof r === 'object' && r !== null && 'isError' in r && r.isError === true && 'content' in r && Array.isArray(r.content);
}

/** `m` with the text of a tool error on one line (`; ` between its lines). */
export function oneLineErrors(m: JSONRPCMessage): JSONRPCMessage {
  if (!('result' in m) || !isErrorResult(m.result)) return m;
  const content = m.result.content.map((c) =>
    c.type === 'text' && typeof c.text === 'string' ? { ...c, text: safeLine(c.text.split(/\r?\n/).join('; ')) } : c,
  );
  return { ...m, result: { ...m.result, content } };
}

export async function connectServer(server: McpServer, transport: Transport): Promise<void> {
  const send = transport.send.bind(transport);
  transport.send = (m, opts) => send(oneLineErrors(m), opts);
  await server.connect(transport);
}
