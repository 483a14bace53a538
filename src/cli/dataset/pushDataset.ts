/** `--push owner/name` of `rlrb export --dataset`: the dataset to a Hub dataset repo, with the user's token for the chosen endpoint. */
import { pushDataset as push } from '../../core/hub/pushDataset';
import type { HubConnection } from '../../core/hub/model';
import { UsageError } from '../args';
import type { ParsedArgs } from '../args';
import { connection } from '../open/hubConnection';
import { writeErr } from '../output/safeText';

export type PushConnection = HubConnection & { token: string };

/** The connection a push uses, checked before anything is exported: a push needs a token. */
export async function pushConnection(a: ParsedArgs, signal: AbortSignal): Promise<PushConnection> {
  const c = await connection(a, signal);
  if (c.token === undefined) throw new UsageError('--push needs a Hub token (HF_TOKEN, or `hf auth login`)');
  return { ...c, token: c.token };
}

export async function pushDataset(dir: string, repo: string, c: PushConnection): Promise<void> {
  const r = await push(dir, repo, c);
  writeErr(`rlrb: pushed ${r.files} files to the dataset ${repo} at ${c.endpoint}${r.commit ? ` (commit ${r.commit})` : ''}\n`);
}
