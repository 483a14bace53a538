/**
 * Uploads a dataset folder (its `trajectories/` and `turns/` tables and a card naming them as
 * two configs, so the Hub's viewer, its SQL console and DuckDB's `hf://` paths find them) to a
 * Hub dataset repo in one commit, through `@huggingface/hub`: the repo is created when it does not
 * exist, the token goes only to the endpoint (our fetch drops it on any other origin).
 */
import { openAsBlob } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { createRepo, uploadFiles } from '@huggingface/hub';
import { makeHubFetch } from './hubFetch';
import type { HubConnection } from './model';
import { toHubError } from './errors';

export const DATASET_CARD = [
  '---',
  'configs:',
  '- config_name: trajectories',
  '  data_files: "trajectories/**/*.parquet"',
  '  default: true',
  '- config_name: turns',
  '  data_files: "turns/**/*.parquet"',
  '---',
  '',
  'RL runs exported by RL Run Browser (`rlrb export --dataset`): one row a trajectory in `trajectories`,',
  'one row a turn in `turns`, Hive-partitioned by `run` and `iteration`.',
  '',
].join('\n');

/** Every Parquet file under the dataset's tables, as repo paths (`/` separated). */
export async function datasetFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const table of ['trajectories', 'turns']) {
    const entries = await readdir(join(dir, table), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries)
      if (e.isFile() && e.name.endsWith('.parquet')) out.push(relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
  }
  return out.sort();
}

export interface PushResult {
  files: number;
  commit: string | undefined;
}

export async function pushDataset(dir: string, repo: string, c: HubConnection & { token: string }): Promise<PushResult> {
  const f = makeHubFetch(c.endpoint, c.signal, c.baseFetch);
  const common = { hubUrl: c.endpoint, fetch: f.fetch, accessToken: c.token };
  const ctx = { repo, endpoint: c.endpoint, hubFetch: f, token: c.token };
  const paths = await datasetFiles(dir);
  if (paths.length === 0) throw new Error(`${dir} holds no dataset (trajectories/ and turns/ Parquet files)`);
  try {
    await createRepo({ repo: { type: 'dataset', name: repo }, ...common }).catch((e: unknown) => {
      // an existing repo is where the files go
      if (f.lastStatus() !== 409) throw e;
    });
    const files = [
      { path: 'README.md', content: new Blob([DATASET_CARD]) },
      ...(await Promise.all(paths.map(async (p) => ({ path: p, content: await openAsBlob(join(dir, ...p.split('/'))) })))),
    ];
    const out = await uploadFiles({
      repo: { type: 'dataset', name: repo },
      files,
      commitTitle: `rlrb export: ${paths.length} Parquet files`,
      ...common,
      ...(c.signal ? { abortSignal: c.signal } : {}),
    });
    return { files: files.length, commit: out?.commit.oid };
  } catch (e) {
    throw toHubError(e, ctx);
  }
}
