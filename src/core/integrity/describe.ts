/** One line a person reads about an iteration's state: the CLI, the tree's descriptions and the download messages share it. */
import type { HfCheck, ResumeCheck } from './types';

export type IntegrityState = 'complete' | 'incomplete' | 'unknown';

export interface Described {
  state: IntegrityState;
  /** a one-character mark for plain text */
  mark: string;
  text: string;
}

const list = (names: string[], max = 4): string =>
  names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;

export function stateOf(complete: boolean | null): IntegrityState {
  return complete === true ? 'complete' : complete === false ? 'incomplete' : 'unknown';
}

const MARKS: Record<IntegrityState, string> = { complete: '✓', incomplete: '✗', unknown: '?' };

/** What is missing or short in a resume iteration, in words. */
export function resumeProblems(c: ResumeCheck): string {
  const parts: string[] = [];
  if (c.missing?.length) parts.push(`missing ${list(c.missing)}`);
  if (c.short?.length) parts.push(`short ${list(c.short)}`);
  return parts.join('; ');
}

export function describeResume(c: ResumeCheck): Described {
  const state = stateOf(c.complete);
  const text =
    state === 'complete'
      ? `complete: ${c.files} shards, ${c.tensors} tensors`
      : state === 'incomplete'
        ? `incomplete: ${resumeProblems(c)}`
        : `cannot tell: ${c.reason ?? 'no reason given'}`;
  return { state, mark: MARKS[state], text };
}

/** The dtype holding most parameters (an hf checkpoint is usually one dtype). */
export function mainDtype(c: HfCheck): string | undefined {
  return Object.entries(c.dtypes ?? {}).sort((a, b) => b[1] - a[1])[0]?.[0];
}

export function formatParameters(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}K`;
  return String(n);
}

export function describeHf(c: HfCheck): Described {
  const state = stateOf(c.complete);
  const text =
    state === 'complete'
      ? `complete: ${formatParameters(c.parameters ?? 0)} parameters ${mainDtype(c) ?? ''}, ${c.shards} shard${c.shards === 1 ? '' : 's'}`
          // without a dtype the text would read "parameters , N shards"
          .replace(' ,', ',')
      : state === 'incomplete'
        ? `incomplete: ${c.missing.length ? `missing ${list(c.missing)}` : (c.reason ?? 'a header does not fit its file')}`
        : `cannot tell: ${c.reason ?? 'no reason given'}`;
  return { state, mark: MARKS[state], text };
}
