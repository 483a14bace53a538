/**
 * Where a file's bytes come from. The Hub's resolve route is asked once per file (it also
 * says the file's size now); the signed URL it redirects to (a CDN, the Xet bridge) is kept
 * and used directly by the file's next ranges, so that a file of a thousand ranges costs
 * the Hub one resolve, not a thousand. A signed URL that expired (403 from its origin) is
 * dropped and the next range resolves it again.
 */
import { fileDownloadInfo } from '@huggingface/hub';
import type { HubFetch } from '../hubFetch';
import { HubError } from '../errors';
import type { DownloadItem } from './types';
import { DownloadError } from './types';

/** Each segment of a repo path encoded for a URL: file names may hold #, ?, % or \\. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export interface SourceContext {
  repo: string;
  commit: string;
  endpoint: string;
  token?: string;
}

export class FileSource {
  private resolved: string | undefined;
  private signed: string | undefined;

  constructor(
    private readonly c: SourceContext,
    private readonly it: DownloadItem,
  ) {}

  /** The URL to ask now: the signed one kept from an earlier range, else the resolve route. */
  async url(hf: HubFetch): Promise<{ url: string; signed: boolean }> {
    if (this.signed !== undefined) return { url: this.signed, signed: true };
    // each attempt resolves on its own link (a shared request would fail with another's stall)
    this.resolved ??= await this.resolve(hf);
    return { url: this.resolved, signed: false };
  }

  /** A response came from `finalUrl`: a URL on another origin is a signed one, kept for the next ranges. */
  answered(finalUrl: string): void {
    if (new URL(finalUrl).origin !== new URL(this.c.endpoint).origin) this.signed = finalUrl;
  }

  /** The signed URL `url` expired: the next range resolves again. */
  expired(url: string): void {
    if (this.signed === url) this.signed = undefined;
  }

  private async resolve(hf: HubFetch): Promise<string> {
    const c = this.c;
    const creds = c.token ? { accessToken: c.token } : {};
    const repo = { type: 'model' as const, name: c.repo };
    const info = await fileDownloadInfo({
      repo,
      path: encodePath(this.it.path),
      revision: c.commit,
      hubUrl: c.endpoint,
      fetch: hf.fetch,
      ...creds,
    });
    if (!info) throw new HubError('entry-not-found', `${this.it.path} is no longer in ${c.repo} at ${c.commit.slice(0, 8)}`);
    if (info.size !== this.it.size)
      throw new DownloadError(
        `${this.it.path}: the Hub now says ${info.size} bytes, the listing said ${this.it.size}; refresh and try again`,
        this.it.path,
      );
    return info.url;
  }
}
