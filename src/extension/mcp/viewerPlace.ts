/**
 * The place `open_in_viewer` opens, as a run link (src/core/links/link.ts) so the extension's
 * link service opens it: a trajectory (and turn), a metric, or the run.
 */
import type { LinkView, RunLink, RunRef } from '../../core/links/link';
import { isHubRef, parseHubRef } from '../../core/hub/inPlace/hubRef';

/** The tool's input (its JSON schema is in package.json, `contributes.languageModelTools`). */
export interface ViewerInput {
  run: string;
  iteration?: number;
  group?: number;
  rollout?: number;
  turn?: number;
  metric?: string;
}

const CHAIN = ['iteration', 'group', 'rollout', 'turn'] as const;

const whole = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The input checked (one line saying what is wrong), from whatever the model sent. */
export function viewerInput(v: unknown): ViewerInput | string {
  if (typeof v !== 'object' || v === null) return 'the input must be an object with a "run"';
  const o = v as Record<string, unknown>;
  if (typeof o['run'] !== 'string' || o['run'].trim() === '')
    return '"run" must be a run folder, a .jsonl log or hub:owner/name[@revision]';
  const out: ViewerInput = { run: o['run'] };
  for (const k of CHAIN) {
    if (o[k] === undefined) continue;
    if (!whole(o[k])) return `"${k}" must be a whole number >= 0`;
    out[k] = o[k] as number;
  }
  if (o['metric'] !== undefined) {
    if (typeof o['metric'] !== 'string' || o['metric'] === '') return '"metric" must be a metric name';
    out.metric = o['metric'];
  }
  for (let i = 1; i < CHAIN.length; i++)
    if (out[CHAIN[i]!] !== undefined && out[CHAIN[i - 1]!] === undefined) return `"${CHAIN[i]}" needs "${CHAIN[i - 1]}"`;
  if (out.metric !== undefined && out.iteration !== undefined) return 'give either a metric or a trajectory place, not both';
  return out;
}

/** The run link of a checked input; a relative path is read against `base` (the first workspace folder). */
export function viewerLink(i: ViewerInput, resolvePath: (p: string) => string): RunLink | string {
  let run: RunRef;
  if (isHubRef(i.run)) {
    const ref = parseHubRef(i.run);
    if (typeof ref === 'string') return ref;
    run = { kind: 'hub', repo: ref.repo, revision: ref.revision };
  } else run = { kind: 'local', path: resolvePath(i.run) };
  const view: LinkView =
    i.metric !== undefined
      ? { kind: 'metric', metric: i.metric }
      : i.iteration !== undefined
        ? {
            kind: 'trajectories',
            iteration: i.iteration,
            ...(i.group !== undefined ? { group: i.group } : {}),
            ...(i.rollout !== undefined ? { rollout: i.rollout } : {}),
            ...(i.turn !== undefined ? { turn: i.turn } : {}),
          }
        : { kind: 'run' };
  return { run, view };
}

/** The place in words, for the confirmation. */
export function placeText(i: ViewerInput): string {
  const at = CHAIN.filter((k) => i[k] !== undefined).map((k) => `${k} ${i[k]}`);
  if (i.metric !== undefined) return `the metric ${JSON.stringify(i.metric)} of ${JSON.stringify(i.run)}`;
  return at.length > 0 ? `${at.join(', ')} of ${JSON.stringify(i.run)}` : `the run ${JSON.stringify(i.run)}`;
}
