/**
 * What a point of the Evaluation chart offers: that checkpoint's eval episodes, and the checkpoint
 * of that iteration from the run's Hub repo (a run read in place, or a logs folder downloaded from
 * the Hub), else one line saying why there is nothing to download. Pure: the panel asks and runs the command.
 */
import type { RunRef } from '../../core/links/link';
import { iterDirName } from '../../core/hub/model';
import type { DOWNLOAD_COMMANDS } from '../commands/ids';

type DownloadCommandId = (typeof DOWNLOAD_COMMANDS)[number];

export interface OfferChoice {
  /** the button */
  label: string;
  command: DownloadCommandId;
  /** the Hub tree node the download command takes */
  node: { kind: 'iteration'; repo: string; folder: 'resume' | 'hf'; iteration: number };
}

/** The checkpoint's eval episodes in the run's trajectory browser: offered for every point, local run or not. */
export interface EpisodesChoice {
  label: string;
  iteration: number;
}

export type CheckpointOffer =
  | { kind: 'download'; message: string; choices: OfferChoice[]; episodes: EpisodesChoice }
  | { kind: 'none'; message: string; episodes: EpisodesChoice };

/** The offer for iteration `iteration` of the run `runName` whose origin is `ref`. */
export function checkpointOffer(ref: RunRef, runName: string, iteration: number): CheckpointOffer {
  const dir = iterDirName(iteration);
  const episodes = { label: `Open the eval episodes of iteration ${iteration}`, iteration };
  if (ref.kind === 'local')
    return {
      kind: 'none',
      message:
        `${runName} is a local run with no Hub origin: there is no checkpoint to download for iteration ${iteration} ` +
        '(a run read in place, or logs downloaded from the Hub, offers its repo’s checkpoints). Its eval episodes are here.',
      episodes,
    };
  const node = (folder: 'resume' | 'hf'): OfferChoice['node'] => ({ kind: 'iteration', repo: ref.repo, folder, iteration });
  return {
    kind: 'download',
    message: `Download the checkpoint of iteration ${iteration} (${dir}) from ${ref.repo}?`,
    choices: [
      { label: `Download resume/${dir}`, command: 'rlRunBrowser.downloadResume', node: node('resume') },
      { label: `Download hf/${dir}`, command: 'rlRunBrowser.downloadWeights', node: node('hf') },
    ],
    episodes,
  };
}
