/**
 * The Hub connection of a command's `--endpoint` (else HF_ENDPOINT, else huggingface.co), the
 * user's token (`--token`/`--token-file` where the command takes them, else HF_TOKEN, else the
 * Hugging Face CLI's token file) and the proxy the environment sets (HTTPS_PROXY, HTTP_PROXY, NO_PROXY).
 */
import { readFile, stat } from 'node:fs/promises';
import { resolveEndpoint, resolveToken } from '../../core/hub/config';
import type { HubConnection } from '../../core/hub/model';
import { proxiedFetch, proxyFromEnv } from '../../core/hub/proxy';
import { errorMessage } from '../../core/errorMessage';
import { UsageError, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { redactUrls, writeErr } from '../output/safeText';

export async function connection(a: ParsedArgs, signal?: AbortSignal): Promise<HubConnection> {
  let endpoint: string;
  try {
    endpoint = resolveEndpoint(stringFlag(a, 'endpoint'));
  } catch (e) {
    throw new UsageError(redactUrls(errorMessage(e)));
  }
  let baseFetch: typeof fetch | undefined;
  try {
    const proxy = proxyFromEnv(process.env);
    if (proxy) baseFetch = proxiedFetch(proxy);
  } catch (e) {
    throw new UsageError(errorMessage(e));
  }
  const given = await tokenFlag(a);
  const t = given ?? (await resolveToken(undefined));
  return {
    endpoint,
    ...(t.token ? { token: t.token, tokenSource: t.file ?? t.source } : {}),
    ...(signal ? { signal } : {}),
    ...(baseFetch ? { baseFetch } : {}),
  };
}

/**
 * `--token T` or `--token-file PATH` (never both). The token is never printed: a message
 * names the flag or the file. A file that others may read is used, with a warning.
 */
async function tokenFlag(a: ParsedArgs): Promise<{ token: string; source: string; file?: string } | undefined> {
  const flag = a.flags.has('token') ? stringFlag(a, 'token') : undefined;
  const file = a.flags.has('token-file') ? stringFlag(a, 'token-file') : undefined;
  if (flag !== undefined && file !== undefined) throw new UsageError('give --token or --token-file, not both');
  if (flag !== undefined) {
    const token = flag.trim();
    if (!token) throw new UsageError('--token is empty');
    return { token, source: '--token' };
  }
  if (file === undefined) return undefined;
  let text: string;
  try {
    const st = await stat(file);
    if (!st.isFile()) throw new UsageError(`--token-file ${file} is not a file`);
    if (st.size > 4096) throw new UsageError(`--token-file ${file} is ${st.size} bytes; a token file holds one token`);
    if ((st.mode & 0o077) !== 0)
      writeErr(`warning: --token-file ${file} can be read by other users (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it\n`);
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read --token-file ${file}: ${errorMessage(e).split(':')[0]}`);
  }
  const token = text.trim();
  if (!token || /\s/.test(token)) throw new UsageError(`--token-file ${file} must hold one token on one line`);
  return { token, source: 'token file', file };
}
