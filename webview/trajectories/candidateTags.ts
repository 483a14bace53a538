/** A candidate's notes (src/shared/candidateNotes.ts) as tags: the browser's detail and the side-by-side view. */
import { h } from '../common';
import { candidateNotes } from '../../src/shared/candidateNotes';
import type { CandidateView } from '../../src/shared/protocol/trajectories';

export function candidateTags(c: CandidateView): HTMLElement[] {
  return candidateNotes(c).map((n) => h('span', { class: `tag ${n.cls}` }, n.label));
}
