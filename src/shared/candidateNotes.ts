/**
 * The words beside a candidate, the same in the browser's detail and the side-by-side view:
 * why its d_k is 0 ("same action") or absent ("done (dropped)", "no score"), whether it was
 * executed, and whether it has the highest score. `cls` names the tag's colour.
 */
import type { CandidateView } from './protocol/trajectories';

export interface CandidateNote {
  cls: 'exec' | 'same' | 'done' | 'warn';
  label: string;
}

export function candidateNotes(c: CandidateView): CandidateNote[] {
  const notes: [boolean, CandidateNote['cls'], string][] = [
    [c.k === 0, 'exec', 'executed'],
    [c.k > 0 && c.same, 'same', 'same action'],
    [c.done, 'done', c.k === 0 ? 'done' : 'done (dropped)'],
    [c.dropped === 'no-score', 'warn', 'no score'],
    [c.isArgmax, 'exec', 'argmax'],
  ];
  return notes.filter(([on]) => on).map(([, cls, label]) => ({ cls, label }));
}
