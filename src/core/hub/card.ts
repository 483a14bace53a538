/**
 * A Hub repo's card (README.md) as text, for the settings a run's logs do not state; at most
 * 1 MB, fetched through `@huggingface/hub` with the token kept to the endpoint. Undefined when
 * the repo has none or it cannot be read: a card is a hint, never a failure.
 */
import { downloadFile } from '@huggingface/hub';
import { makeHubFetch } from './hubFetch';
import { apiStall } from './model';
import type { HubConnection } from './model';

const CARD_MAX_BYTES = 1 << 20;

export async function readCard(repo: string, revision: string, c: HubConnection): Promise<string | undefined> {
  const f = makeHubFetch(c.endpoint, c.signal, c.baseFetch, { ...apiStall(c), bodyLimit: () => CARD_MAX_BYTES });
  try {
    const blob = await downloadFile({
      repo: { type: 'model', name: repo },
      path: 'README.md',
      revision,
      hubUrl: c.endpoint,
      fetch: f.fetch,
      xet: false,
      ...(c.token ? { accessToken: c.token } : {}),
    });
    return blob ? await blob.text() : undefined;
  } catch {
    return undefined;
  }
}
