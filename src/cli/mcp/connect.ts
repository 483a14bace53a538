/**
 * Connects the server to a transport, every tool error it sends made one line (the SDK joins
 * argument problems with newlines), and a tool call whose arguments hold a `__proto__` key refused
 * (the argument parser would drop it without a word).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { safeLine, writeErr } from '../output/safeText';
import { errorMessage } from '../../core/errorMessage';

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

/** The path of the first `__proto__` key in `v` (own keys, as JSON.parse makes them), or undefined. */
export function protoKeyIn(v: unknown, path = 'arguments', depth = 0): string | undefined {
  if (v === null || typeof v !== 'object' || depth > 64) return undefined;
  for (const k of Object.keys(v)) {
    const at = Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}`;
    if (k === '__proto__') return at;
    const inner = protoKeyIn((v as Record<string, unknown>)[k], at, depth + 1);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The tool error answering a tool call with a `__proto__` key in its arguments, or undefined. */
export function protoRefusal(m: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!('method' in m) || m.method !== 'tools/call' || !('id' in m)) return undefined;
  const at = protoKeyIn((m.params as { arguments?: unknown } | undefined)?.arguments);
  if (at === undefined) return undefined;
  const text = `${at}: a __proto__ key is not allowed in tool arguments`;
  return { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text }], isError: true } };
}

export async function connectServer(server: McpServer, transport: Transport): Promise<void> {
  const send = transport.send.bind(transport);
  transport.send = (m, opts) => send(oneLineErrors(m), opts);
  await server.connect(transport);
  const receive = transport.onmessage;
  transport.onmessage = (m, extra) => {
    const refusal = protoRefusal(m);
    if (refusal !== undefined)
      send(refusal, { relatedRequestId: 'id' in m ? m.id : undefined }).catch((e: unknown) =>
        writeErr(`rlrb mcp: cannot send a refusal: ${errorMessage(e)}\n`),
      );
    else receive?.(m, extra);
  };
}
