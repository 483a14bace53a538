/** `rlrb check`: docs/format.md section 9 for a Hub repo or a local folder; exit 0 only when latest names a whole checkpoint. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ParsedArgs } from '../args';
import { UsageError, stringFlag } from '../args';
import type { Command } from '../command';
import { connection } from '../open/hubConnection';
import { repoProblem } from '../open/repoId';
import { checkFolder } from '../../core/integrity/checkFolder';
import { checkHubRepo } from '../../core/integrity/checkHub';
import { describeHf, describeResume } from '../../core/integrity/describe';
import type { IntegrityCheck } from '../../core/integrity/types';
import { HubError } from '../../core/hub/errors';
import { safeLine, writeErr, writeJson, writeOut } from '../output/safeText';

const USAGE = 'check <repo | hub:owner/name[@revision] | folder> [--endpoint URL] [--revision R] [--json]';

type Target = { kind: 'folder'; path: string } | { kind: 'hub'; repo: string; revision: string | undefined };

/** A folder that exists is a folder; `hub:owner/name[@rev]` or a bare `owner/name` is a repo. */
export function checkTarget(arg: string, isDir: (p: string) => boolean): Target {
  if (!arg.startsWith('hub:') && isDir(arg)) return { kind: 'folder', path: resolve(arg) };
  const m = /^(?:hub:)?([^@]+)(?:@(.+))?$/.exec(arg);
  const repo = m?.[1] ?? '';
  const bad = repoProblem(repo);
  if (bad !== undefined) throw new UsageError(arg.startsWith('hub:') ? bad : `${arg} is neither a folder nor a repo id: ${bad}`);
  return { kind: 'hub', repo, revision: m?.[2] };
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

async function run(a: ParsedArgs): Promise<number> {
  const arg = a.positional[1];
  if (!arg || a.positional.length > 2) throw new UsageError(`usage: rlrb ${USAGE}`);
  const t = checkTarget(arg, isDir);
  let r: IntegrityCheck;
  try {
    if (t.kind === 'folder') r = await checkFolder(t.path);
    else r = await checkHubRepo(t.repo, stringFlag(a, 'revision') ?? t.revision ?? 'main', await connection(a));
  } catch (e) {
    if (e instanceof HubError) {
      writeErr(`rlrb: ${safeLine(e.message)}\n`);
      return 1;
    }
    throw e;
  }
  const ok = r.report.latest.namesComplete;
  if (a.flags.has('json')) writeJson(r.report);
  else writeOut(human(r));
  for (const w of r.warnings) writeErr(`warning: ${safeLine(w)}\n`);
  return ok ? 0 : 1;
}

function human(r: IntegrityCheck): string {
  const out: string[] = [];
  for (const [kind, entries] of [
    ['resume', Object.entries(r.report.resume).map(([d, c]) => [d, describeResume(c)] as const)],
    ['hf', Object.entries(r.report.hf).map(([d, c]) => [d, describeHf(c)] as const)],
  ] as const) {
    out.push(`${kind}/`);
    for (const [dir, d] of entries) out.push(`  ${d.mark} ${safeLine(dir)}  ${safeLine(d.text)}`);
    if (entries.length === 0) out.push('    (none)');
  }
  const l = r.report.latest;
  if (l.names === null) out.push('latest: no latest_checkpointed_iteration.txt');
  else if (l.namesComplete) out.push(`latest: iteration ${l.names}, complete`);
  else
    out.push(
      `latest: iteration ${l.names} is NOT complete; ` +
        (l.lastComplete === null ? 'no resume iteration is complete' : `the last complete one is ${l.lastComplete}`),
    );
  return out.join('\n') + '\n';
}

export const CHECK: Command = {
  usage: USAGE,
  about:
    'Is every checkpoint whole? Reads .metadata and safetensors headers, never a shard body. Exit 0 only when latest names a complete one.',
  flags: { endpoint: 'string', revision: 'string', json: 'boolean' },
  run,
};
