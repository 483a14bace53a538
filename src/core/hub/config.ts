/** Where the Hub is and which token to use; the token is never printed or logged. */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

/** Endpoint: the setting, else `HF_ENDPOINT`, else huggingface.co; without a trailing slash. */
export function resolveEndpoint(setting: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const raw = (setting && setting.trim()) || (env['HF_ENDPOINT'] && env['HF_ENDPOINT'].trim()) || DEFAULT_ENDPOINT;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`the Hub endpoint "${raw}" is not a URL`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`the Hub endpoint "${raw}" must be http or https`);
  return u.toString().replace(/\/+$/, '');
}

export type TokenSource = 'stored' | 'HF_TOKEN' | 'token file' | 'none';

export interface ResolvedToken {
  token: string | undefined;
  source: TokenSource;
  /** the file it came from, for `token file` */
  file?: string;
}

/** The token file the Hugging Face CLI writes. */
export function tokenFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const hfHome = env['HF_HOME'] || join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'huggingface');
  return join(hfHome, 'token');
}

/** Token, in this order: the stored one, `HF_TOKEN`, the CLI's token file. */
export async function resolveToken(stored: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<ResolvedToken> {
  if (stored && stored.trim()) return { token: stored.trim(), source: 'stored' };
  const envToken = env['HF_TOKEN']?.trim();
  if (envToken) return { token: envToken, source: 'HF_TOKEN' };
  const file = tokenFilePath(env);
  try {
    const t = (await readFile(file, 'utf8')).trim();
    if (t) return { token: t, source: 'token file', file };
  } catch {
    // no token file
  }
  return { token: undefined, source: 'none' };
}

/** Replaces any token-looking text, for messages that might echo a header or URL. */
export function redact(text: string, token?: string): string {
  // user and OAuth tokens (hf_..., hf_oauth_...) and organisation API tokens
  let out = text.replace(/\b(hf|api_org)_[A-Za-z0-9_]{6,}/g, '$1_***');
  if (token) out = out.split(token).join('***');
  return out;
}
