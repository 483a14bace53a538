/**
 * docs/format.md section 9 in the trees: what an iteration's state adds to its node (icon,
 * description, tooltip with its shards and their sizes), and the warning node when latest names
 * an incomplete checkpoint. Pure data; the providers only adapt it.
 */
import type { CheckReport, FileEntry, HfCheck, ResumeCheck } from '../../core/integrity/types';
import { describeHf, describeResume, formatParameters, mainDtype } from '../../core/integrity/describe';
import type { IntegrityState } from '../../core/integrity/describe';
import { formatBytes } from '../../shared/format';

export interface IntegrityView {
  state: IntegrityState;
  /** codicon */
  icon: string;
  /** the short words for the node's description */
  description: string;
  tooltip: string;
}

const ICONS: Record<IntegrityState, string> = { complete: 'pass', incomplete: 'error', unknown: 'question' };

/** Names for a tree row, where the sidebar cuts the end: the first two, then how many more. */
const few = (names: string[]): string => (names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} +${names.length - 2}`);

/** The why of "cannot tell" in a few words for a row (the tooltip has it whole): up to its first aside, at most 60 characters. */
export function shortReason(reason: string | undefined): string {
  const head = (reason ?? 'no reason given').split(/ \(|, /)[0]!;
  return head.length <= 60 ? head : `${head.slice(0, 59)}…`;
}

/** What a row says of a checkpoint that is not complete: what is missing or short, or why it cannot tell. */
function resumeWords(c: ResumeCheck, state: IntegrityState): string {
  if (state === 'unknown') return `cannot tell: ${shortReason(c.reason)}`;
  // the error icon says incomplete; the sidebar's few characters go to what is missing
  const parts = [c.missing?.length ? `missing ${few(c.missing)}` : '', c.short?.length ? `short ${few(c.short)}` : ''];
  return parts.filter(Boolean).join('; ') || 'incomplete';
}

/** A shard list for a tooltip: each file with its size, a short one with what it needs, a missing one marked in its place. */
function shardLines(files: FileEntry[], missing: string[], need: Record<string, number> = {}): string[] {
  const rows: [string, string][] = files.map((f) => {
    const n = need[f.name];
    return [f.name, `  ${f.name}  ${formatBytes(f.size)}${n !== undefined && f.size < n ? ` (short: needs ${formatBytes(n)})` : ''}`];
  });
  for (const m of missing) rows.push([m, `  ${m}  missing`]);
  return rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, line]) => line);
}

export function resumeIntegrityView(c: ResumeCheck, files: FileEntry[]): IntegrityView {
  const d = describeResume(c);
  const head = d.state === 'incomplete' ? `incomplete: ${d.text.slice('incomplete: '.length)}` : d.text;
  return {
    state: d.state,
    icon: ICONS[d.state],
    description: d.state === 'complete' ? 'complete' : resumeWords(c, d.state),
    tooltip: [
      head,
      ...(c.tensors !== undefined ? [`${c.tensors} tensors in .metadata`] : []),
      'files:',
      ...shardLines(files, c.missing ?? [], c.needBytes),
    ].join('\n'),
  };
}

export function hfIntegrityView(c: HfCheck, files: FileEntry[]): IntegrityView {
  const d = describeHf(c);
  const dtype = mainDtype(c);
  const description =
    d.state === 'complete'
      ? `${formatParameters(c.parameters ?? 0)} params${dtype ? ` ${dtype}` : ''}`
      : d.state === 'incomplete'
        ? c.missing.length
          ? `missing ${few(c.missing)}`
          : shortReason(c.reason ?? 'a header does not fit its file')
        : `cannot tell: ${shortReason(c.reason)}`;
  return {
    state: d.state,
    icon: ICONS[d.state],
    description,
    tooltip: [d.text, 'files:', ...shardLines(files, c.missing)].join('\n'),
  };
}

export interface LatestWarning {
  icon: 'warning';
  /** short: the sidebar cuts a row at about 33 characters */
  label: string;
  description: string;
  tooltip: string;
  /** the iteration to offer instead (download it, or name it latest), when there is one */
  offer: number | null;
}

/** A warning when latest names a checkpoint that is incomplete (or cannot be told): names the last complete one and offers it. */
export function latestWarning(r: CheckReport): LatestWarning | undefined {
  const l = r.latest;
  if (l.names === null || l.namesComplete) return undefined;
  const named = r.resume[`iter_${String(l.names).padStart(7, '0')}`];
  const why = named === undefined ? 'has no folder under resume/' : describeResume(named).text;
  const state = named === undefined ? 'absent' : named.complete === null ? 'cannot tell' : 'incomplete';
  const instead = l.lastComplete === null ? 'no resume iteration is complete' : `the last complete one is ${l.lastComplete}`;
  return {
    icon: 'warning',
    label: `latest ${l.names} ${state}, ${l.lastComplete === null ? 'none' : l.lastComplete} complete`,
    description: l.lastComplete === null ? instead : `click to download ${l.lastComplete}`,
    tooltip:
      `latest_checkpointed_iteration.txt names ${l.names}: ${why}.\n` +
      `The launcher would resume from it. ${instead[0]!.toUpperCase()}${instead.slice(1)}.`,
    offer: l.lastComplete,
  };
}
