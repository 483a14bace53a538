/**
 * Where a followed run's changes come from. `head()` is the one small request a poll makes (the
 * Hub repo's head commit; the local logs' and checkpoint folders' sizes, by stat); `refresh()`
 * reads what changed (the logs' new tails by range, the listing), and is called only when the
 * head moved.
 */
import { stat } from 'node:fs/promises';
import { modelInfo } from '@huggingface/hub';
import { makeHubFetch } from '../hub/hubFetch';
import { HubError, toHubError } from '../hub/errors';
import { apiStall, listRun } from '../hub/model';
import type { HubConnection } from '../hub/model';
import { isSha1, shown } from '../hub/treeEntry';
import type { HubRun } from '../hub/inPlace/hubRun';
import { Run } from '../run/run';
import { locateRun } from '../run/runLocator';
import type { RunLocation } from '../run/runLocator';
import type { IndexEngine } from '../log/creditIndex';
import { localCheckpointFolders } from './checkpoints';
import type { CheckpointFolder, CheckpointProbe } from './checkpoints';
import { folderIntegrityProbe, hubIntegrityProbe } from './integrityProbe';

export interface LiveSource {
  /** stable name of the run (the cursor is kept under it) */
  readonly key: string;
  readonly run: Run;
  /** a text that changes whenever the run may have: one small request */
  head(): Promise<string>;
  /** reads what is new in the logs */
  refresh(): Promise<void>;
  /** every checkpoint iteration and whether it is complete (section 9), asked after a refresh */
  readonly checkpoints: CheckpointProbe;
}

/** A model info asking for the commit id alone: on the Hub, a few hundred bytes. */
const INFO_MAX_BYTES = 1 << 20;

/** The commit `revision` of `repo` is at now (one request). */
export async function headCommit(repo: string, revision: string, c: HubConnection): Promise<string> {
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, { ...apiStall(c), bodyLimit: () => INFO_MAX_BYTES });
  try {
    const info = await modelInfo({
      name: repo,
      revision,
      hubUrl: c.endpoint,
      fetch: hf.fetch,
      additionalFields: ['sha'],
      ...(c.token ? { accessToken: c.token } : {}),
    });
    const sha = (info as { sha?: unknown }).sha;
    if (!isSha1(sha)) throw new HubError('server', `the Hub answered a commit id for ${repo} that is not 40 hex digits: ${shown(sha)}`);
    return sha;
  } catch (e) {
    throw toHubError(e, { endpoint: c.endpoint, repo, revision, token: c.token, tokenSource: c.tokenSource, hubFetch: hf });
  }
}

/** A run read in place: the head is the repo's commit; a new commit refreshes the logs and lists the checkpoints. */
export function hubLiveSource(
  hr: HubRun,
  conn: HubConnection,
  probe?: (folders: () => Promise<CheckpointFolder[]>) => CheckpointProbe,
): LiveSource {
  const folders = async (): Promise<CheckpointFolder[]> => {
    const l = await listRun(hr.ref.repo, hr.commit || hr.ref.revision, conn);
    return [...l.resume, ...l.hf].map((i) => ({ kind: i.kind, iteration: i.iteration, files: i.files }));
  };
  return {
    key: `hub:${conn.endpoint}/${hr.ref.repo}@${hr.ref.revision}`,
    run: hr.run,
    head: () => headCommit(hr.ref.repo, hr.ref.revision, conn),
    refresh: async () => {
      await hr.refresh();
      await hr.run.updateEvals();
    },
    checkpoints: probe ? probe(folders) : hubIntegrityProbe(hr.ref.repo, () => hr.commit || hr.ref.revision, conn),
  };
}

/**
 * A local run: the head is where its logs are (a log that appears later, the evaluations say, is
 * taken in: the run is opened again over the same saved indexes) and the size and time of each,
 * and of each checkpoint file (stat only).
 */
export function localLiveSource(
  initial: Run,
  engine: IndexEngine = {},
  probe?: (folders: () => Promise<CheckpointFolder[]>) => CheckpointProbe,
): LiveSource {
  const root = initial.location.root;
  let run = initial;
  const folders = (): Promise<CheckpointFolder[]> => localCheckpointFolders(root);
  // the run's folder located again, when it keeps the logs the run has (a run opened as one odd-named file is not)
  const where = async (): Promise<RunLocation | undefined> => {
    const loc = await locateRun(root);
    const keeps = (k: 'creditLog' | 'metricsLog' | 'evalLog'): boolean => run.location[k] === undefined || loc?.[k] === run.location[k];
    return loc && keeps('creditLog') && keeps('metricsLog') && keeps('evalLog') ? loc : undefined;
  };
  return {
    key: `local:${root}`,
    get run(): Run {
      return run;
    },
    head: async () => {
      const loc = await where();
      const paths = loc ? [loc.creditLog, loc.metricsLog, loc.evalLog] : run.logPaths;
      const logs = await Promise.all(
        paths.map(async (p) => {
          const s = p === undefined ? undefined : await stat(p).catch(() => undefined);
          return s ? `${p}:${s.size}:${s.mtimeMs}` : '-';
        }),
      );
      const cps = (await folders()).map((f) => `${f.kind}${f.iteration}:${f.files.map((x) => `${x.path}=${x.size}`).join(',')}`);
      return JSON.stringify([logs, cps]);
    },
    refresh: async () => {
      const loc = await where();
      const same = (a: RunLocation): boolean =>
        a.creditLog === run.location.creditLog && a.metricsLog === run.location.metricsLog && a.evalLog === run.location.evalLog;
      if (loc && !same(loc)) run = new Run(loc, run.options, engine);
      await run.update();
    },
    checkpoints: probe ? probe(folders) : folderIntegrityProbe(root),
  };
}

/**
 * A run whose logs someone else keeps up to date (the editor's run list follows the files, and a
 * run read in place the repo's commits): the head is the indexes' versions and the checkpoint
 * folders' sizes, and a refresh reads nothing.
 */
export function observedLiveSource(run: Run, folders: () => Promise<CheckpointFolder[]>, probe: CheckpointProbe): LiveSource {
  return {
    key: `observed:${run.location.root}`,
    run,
    head: async () => {
      const versions = [run.credit?.version, run.credit?.size, run.metrics?.version, run.evals?.version];
      const cps = (await folders()).map((f) => `${f.kind}${f.iteration}:${f.files.map((x) => `${x.path}=${x.size}`).join(',')}`);
      return JSON.stringify([versions, cps]);
    },
    refresh: () => Promise.resolve(),
    checkpoints: probe,
  };
}
