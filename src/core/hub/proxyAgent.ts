/**
 * undici's fetch and proxy agent, in a module of their own so that proxy.ts loads them (about a
 * megabyte of code) only when a request goes through a proxy.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';

/** A fetch through undici's `EnvHttpProxyAgent` for these proxies (one agent: one connection pool). */
export function agentFetch(s: { http: string; https: string; noProxy: string }): typeof undiciFetch {
  const agent = new EnvHttpProxyAgent({ httpProxy: s.http, httpsProxy: s.https, noProxy: s.noProxy });
  return (input, init) => undiciFetch(input, { ...init, dispatcher: agent });
}
