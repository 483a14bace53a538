/** The Hub connection of a command's `--endpoint` (else HF_ENDPOINT, else huggingface.co) and the user's token. */
import { resolveEndpoint, resolveToken } from '../../core/hub/config';
import type { HubConnection } from '../../core/hub/model';
import { errorMessage } from '../../core/errorMessage';
import { UsageError, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { redactUrls } from '../output/safeText';

export async function connection(a: ParsedArgs, signal?: AbortSignal): Promise<HubConnection> {
  let endpoint: string;
  try {
    endpoint = resolveEndpoint(stringFlag(a, 'endpoint'));
  } catch (e) {
    throw new UsageError(redactUrls(errorMessage(e)));
  }
  const t = await resolveToken(undefined);
  return { endpoint, ...(t.token ? { token: t.token, tokenSource: t.file ?? t.source } : {}), ...(signal ? { signal } : {}) };
}
