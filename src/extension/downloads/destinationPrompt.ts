/**
 * The words of the first "where does it go" question (pure; no vscode): the quick pick's title carries
 * the long explanation, its placeholder stays short enough to be read whole in a narrow window.
 */
import type { DestKind } from './destinations';

/** The longest placeholder shown whole in the quick input at its narrowest. */
export const PLACEHOLDER_MAX = 48;

const WHAT: Readonly<Record<DestKind, { title: string; placeHolder: string }>> = {
  resume: {
    title: 'Where the launcher resumes from (iter_XXXXXXX/ and latest_checkpointed_iteration.txt go here)',
    placeHolder: 'Folder for the checkpoints',
  },
  hf: { title: 'Where the converted weights are downloaded', placeHolder: 'Folder for the weights' },
  logs: { title: 'Where the logs are downloaded', placeHolder: 'Folder for the logs' },
};

export function destinationPrompt(repo: string, kind: DestKind): { title: string; placeHolder: string; note: string } {
  const w = WHAT[kind];
  return {
    title: `${repo}: ${w.title}`,
    placeHolder: w.placeHolder,
    note: 'asked once; Change Download Destination… picks another later',
  };
}
