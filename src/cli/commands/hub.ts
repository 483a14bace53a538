/** `rlrb hub ls` and `rlrb download`. */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { FlagSpec, ParsedArgs } from '../args';
import { UsageError, listFlag, numberFlag, stringFlag } from '../args';
import type { Command } from '../command';
import { connection } from '../open/hubConnection';
import { repoProblem } from '../open/repoId';
import { listRun } from '../../core/hub/model';
import { DEST_LATEST, currentLatest, defaultStateRoot, planDownload, runDownload, DownloadError } from '../../core/hub/download';
import type { DownloadPlan, DownloadProgress } from '../../core/hub/download';
import { filterItems } from '../../core/hub/downloadFilter';
import { localStates } from '../../core/hub/download/localState';
import type { ItemState } from '../../core/hub/download/localState';
import { HubError } from '../../core/hub/errors';
import { checkBeforeLatest, gateResumeDownload } from '../../core/integrity/downloadGate';
import { formatBytes, formatDuration } from '../../shared/format';
import { redactUrls, safeLine, safeText, writeErr, writeJson, writeOut } from '../output/safeText';

const DOWNLOAD_FLAGS: FlagSpec = {
  kind: 'string',
  iteration: 'string',
  dest: 'string',
  endpoint: 'string',
  revision: 'string',
  concurrency: 'string',
  'stall-timeout': 'string',
  'set-latest': 'boolean',
  'allow-incomplete': 'boolean',
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'dry-run': 'boolean',
  token: 'string',
  'token-file': 'string',
  json: 'boolean',
};

/** `hub ls <repo>` and `download <repo>`: the repo id, checked as a link's is (no `.` or `..` part). */
function repoArg(a: ParsedArgs, usage: string): string {
  const repo = a.positional[a.positional[0] === 'hub' ? 2 : 1];
  if (!repo) throw new UsageError(`usage: rlrb ${usage}`);
  const bad = repoProblem(repo);
  if (bad !== undefined) throw new UsageError(bad);
  return repo;
}

async function runHubCommand(a: ParsedArgs): Promise<number> {
  if (a.positional[1] !== 'ls') throw new UsageError(`usage: rlrb ${HUB.usage}`);
  const repo = repoArg(a, HUB.usage);
  const c = await connection(a);
  try {
    const l = await listRun(repo, stringFlag(a, 'revision') ?? 'main', c);
    if (a.flags.has('json')) {
      const iter = (i: (typeof l.resume)[number]): unknown => ({
        iteration: i.iteration,
        dir: i.dir,
        files: i.files.length,
        bytes: i.bytes,
        latest: i.isLatest,
      });
      writeJson({
        repo: l.repo,
        revision: l.revision,
        commit: l.commit,
        latest: l.latest,
        resume: l.resume.map(iter),
        hf: l.hf.map(iter),
        logs: l.logs.map((f) => ({ path: f.path, bytes: f.size })),
        totalBytes: l.totalBytes,
        warnings: l.warnings,
      });
      return 0;
    }
    const out: string[] = [`${l.repo} @ ${l.commit.slice(0, 12)} (${formatBytes(l.totalBytes)}) at ${redactUrls(c.endpoint)}`];
    for (const kind of ['resume', 'hf'] as const) {
      out.push(`${kind}/`);
      for (const i of l[kind])
        out.push(
          `  ${i.isLatest ? '*' : ' '} ${safeLine(i.dir.slice(kind.length + 1))}  ` +
            `${String(i.files.length).padStart(3)} files  ${formatBytes(i.bytes).padStart(9)}`,
        );
      if (l[kind].length === 0) out.push('    (none)');
    }
    out.push('logs/');
    for (const f of l.logs) out.push(`    ${safeLine(f.path.slice(5))}  ${formatBytes(f.size)}`);
    if (l.latest !== null) out.push(`* latest_checkpointed_iteration.txt = ${l.latest}`);
    for (const w of l.warnings) out.push(`warning: ${safeLine(w)}`);
    writeOut(out.join('\n') + '\n');
    return 0;
  } catch (e) {
    if (e instanceof HubError) {
      writeErr(`rlrb: ${safeLine(e.message)}\n`);
      return 1;
    }
    throw e;
  }
}

/** The longest `--stall-timeout`: a timer of more than 2^31 - 1 ms fires after 1 ms. */
export const MAX_STALL_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

const DOWNLOAD_USAGE =
  'download <repo> --kind resume|hf|logs [--iteration N|latest] --dest DIR [--endpoint URL] [--revision R] [--concurrency N] ' +
  `[--stall-timeout SECONDS (1 to ${MAX_STALL_SECONDS})] [--set-latest] [--allow-incomplete] [--include GLOB]... [--exclude GLOB]... ` +
  '[--dry-run] [--token T | --token-file PATH] [--json]';

async function runDownloadCommand(a: ParsedArgs): Promise<number> {
  const repo = repoArg(a, DOWNLOAD_USAGE);
  const kind = stringFlag(a, 'kind');
  if (kind !== 'resume' && kind !== 'hf' && kind !== 'logs')
    throw new UsageError(kind === undefined ? `usage: rlrb ${DOWNLOAD_USAGE}` : `--kind takes resume, hf or logs, not "${kind}"`);
  const dest = stringFlag(a, 'dest');
  if (!dest) throw new UsageError('--dest DIR is needed');
  const itRaw = stringFlag(a, 'iteration');
  let iteration: number | 'latest' | undefined;
  if (itRaw === undefined || itRaw === 'latest') iteration = itRaw === 'latest' ? 'latest' : undefined;
  else if (/^\d+$/.test(itRaw)) iteration = Number(itRaw);
  else throw new UsageError(`--iteration takes a whole number or "latest", not "${itRaw}"`);
  const concurrency = numberFlag(a, 'concurrency', { int: true, min: 1 });
  /** no byte for this long: drop the connection and resume from the bytes on disk */
  const stallSeconds = numberFlag(a, 'stall-timeout', { min: 1, max: MAX_STALL_SECONDS });
  const ac = new AbortController();
  const onSigint = (): void => {
    process.stderr.write('\ncancelling; bytes on disk are kept, run the same command again to finish\n');
    ac.abort();
  };
  process.once('SIGINT', onSigint);
  // the listing's API calls are watched with the same timeout as the download's bytes
  const c = { ...(await connection(a, ac.signal)), ...(stallSeconds !== undefined ? { stallTimeoutMs: stallSeconds * 1000 } : {}) };
  const json = a.flags.has('json');
  const tty = process.stderr.isTTY === true && !json;
  const stateRoot = defaultStateRoot(process.env, homedir());
  try {
    const listing = await listRun(repo, stringFlag(a, 'revision') ?? 'main', c);
    // section 9: an incomplete checkpoint is refused before its first byte
    const gate = await gateResumeDownload(
      listing,
      planDownload(listing, kind, iteration, resolve(dest)),
      c,
      a.flags.has('allow-incomplete'),
    );
    const warnings = [...gate.warnings];
    let unsafe = gate.unsafe ?? null;
    for (const w of gate.warnings) writeErr(`warning: ${safeLine(w)}\n`);
    const { plan, latestNote } = await filtered(gate.plan, listFlag(a, 'include'), listFlag(a, 'exclude'), stateRoot);
    if (a.flags.has('dry-run')) {
      const conflict = await latestConflict(plan, a.flags.has('set-latest'));
      printPlan(plan, await localStates(plan.dest, plan.items, stateRoot), conflict ?? latestNote, json);
      return 0;
    }
    writeErr(
      `downloading ${plan.items.length} files (${formatBytes(plan.items.reduce((s, i) => s + i.size, 0))}) of ${repo}` +
        `${plan.iteration !== null ? ` ${kind} iteration ${plan.iteration}` : ' logs'} into ${plan.dest}\n`,
    );
    if (latestNote) writeErr(`${latestNote}\n`);
    const res = await runDownload(plan, {
      ...c,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(stallSeconds !== undefined ? { stallTimeoutMs: stallSeconds * 1000 } : {}),
      latestConflict: a.flags.has('set-latest') ? 'overwrite' : 'fail',
      beforeLatest: async (d: string, n: number) => {
        const b = await checkBeforeLatest(d, n);
        if (b.warning !== undefined) {
          warnings.push(b.warning);
          writeErr(`warning: ${safeLine(b.warning)}\n`);
        }
        if (b.unsafe !== undefined) unsafe = b.unsafe;
        return b.write;
      },
      // the manifest (ranges written, files verified) lives here, not in the checkpoint folder
      stateDir: stateRoot,
      onProgress: (p: DownloadProgress) => {
        if (tty) {
          const pct = p.bytesTotal > 0 ? (100 * p.bytesDone) / p.bytesTotal : 100;
          const bar = '#'.repeat(Math.round(pct / 4)).padEnd(25, '.');
          process.stderr.write(
            `\r[${bar}] ${pct.toFixed(1)}% ${formatBytes(p.bytesDone)}/${formatBytes(p.bytesTotal)} ${formatBytes(p.rate)}/s ` +
              `over ${p.connections} connection${p.connections === 1 ? '' : 's'} ` +
              `ETA ${p.etaSeconds === null ? '?' : formatDuration(p.etaSeconds)} ${p.filesDone}/${p.filesTotal} files\x1b[K`,
          );
          if (p.event && p.event !== 'done' && !p.event.includes('verified')) process.stderr.write(`\n${safeText(redactUrls(p.event))}\n`);
        } else if (p.event && p.event !== 'done') {
          writeErr(`${p.event}\n`);
        }
      },
    });
    if (tty) process.stderr.write('\n');
    if (json)
      writeJson({
        repo: plan.repo,
        commit: plan.commit,
        kind: plan.kind,
        iteration: plan.iteration,
        dest: res.dest,
        files: res.files,
        bytesFetched: res.bytesFetched,
        alreadyComplete: res.skipped,
        latestWritten: res.latestWritten,
        // a .metadata naming a callable no checkpoint writer uses: fetched, never named latest
        unsafeMetadata: unsafe,
        warnings,
      });
    else
      writeOut(
        `done: ${res.files} files verified in ${res.dest} (${formatBytes(res.bytesFetched)} fetched, ${res.skipped} already complete)` +
          `${res.latestWritten ? `; latest_checkpointed_iteration.txt = ${plan.iteration}` : ''}` +
          `${unsafe !== null ? `; latest_checkpointed_iteration.txt not written (.metadata names ${safeLine(unsafe)})` : ''}\n`,
      );
    return 0;
  } catch (e) {
    if (tty) process.stderr.write('\n');
    if (e instanceof HubError && e.kind === 'cancelled') {
      process.stderr.write('rlrb: cancelled; run the same command again to resume\n');
      return 130;
    }
    if (e instanceof HubError || e instanceof DownloadError) {
      writeErr(`rlrb: ${safeLine(e.message)}\n`);
      return 1;
    }
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * The plan with only the files `--include`/`--exclude` keep. The latest file names an
 * iteration only when all of it is here and verified: it stays in the plan when every file
 * left out is already verified in the destination (those are then checked, not fetched);
 * otherwise it is left as it is, and the note says why.
 */
async function filtered(
  plan: DownloadPlan,
  include: string[],
  exclude: string[],
  stateRoot: string,
): Promise<{ plan: DownloadPlan; latestNote: string | undefined }> {
  const { kept, excluded } = filterItems(plan, { include, exclude });
  if (excluded.length === 0) return { plan, latestNote: undefined };
  const here = await localStates(plan.dest, excluded, stateRoot);
  const missing = here.filter((s) => s.state !== 'verified');
  if (!plan.latestFile) return { plan: { ...plan, items: kept }, latestNote: undefined };
  const leftOut = excluded.length === 1 ? 'the file left out is' : `the ${excluded.length} files left out are`;
  if (missing.length === 0)
    return {
      plan: { ...plan, items: [...kept, ...excluded] },
      latestNote: `${leftOut} already here and verified`,
    };
  const { latestFile: _left, ...rest } = plan;
  return {
    plan: { ...rest, items: kept },
    latestNote:
      `${DEST_LATEST} is left as it is: ${missing.length} of the iteration's ${plan.items.length} files are left out ` +
      `and not here (${safeLine(missing[0]!.it.path)}${missing.length > 1 ? ', …' : ''})`,
  };
}

/** What a dry run says when the destination's latest file names another iteration: the download would stop there. */
async function latestConflict(plan: DownloadPlan, overwrite: boolean): Promise<string | undefined> {
  if (!plan.latestFile || overwrite) return undefined;
  const cur = await currentLatest(plan.dest);
  if (cur === null || cur === plan.latestFile.value) return undefined;
  return `it names iteration ${cur} now: the download would stop before fetching (allow it to overwrite: --set-latest)`;
}

/** `--dry-run`: each file, its size, and whether it is here and verified, partly here, or to fetch; nothing is fetched. */
function printPlan(plan: DownloadPlan, states: ItemState[], latestNote: string | undefined, json: boolean): void {
  const toFetch = states.reduce((s, x) => s + (x.state === 'verified' ? 0 : x.it.size - x.have), 0);
  const verified = states.filter((x) => x.state === 'verified').length;
  const latest = plan.latestFile
    ? { file: DEST_LATEST, value: plan.latestFile.value, written: true }
    : { file: DEST_LATEST, written: false };
  if (json) {
    writeJson({
      repo: plan.repo,
      commit: plan.commit,
      kind: plan.kind,
      iteration: plan.iteration,
      dest: plan.dest,
      files: states.map((x) => ({ path: x.it.path, target: x.it.target, bytes: x.it.size, state: x.state, bytesHere: x.have })),
      bytesTotal: states.reduce((s, x) => s + x.it.size, 0),
      bytesToFetch: toFetch,
      verifiedHere: verified,
      latest: plan.kind === 'resume' ? { ...latest, ...(latestNote ? { note: latestNote } : {}) } : null,
    });
    return;
  }
  const label = (x: ItemState): string =>
    x.state === 'verified'
      ? 'here, verified'
      : x.state === 'partial'
        ? `partial: ${formatBytes(x.have)} here, fetch the rest`
        : x.state === 'differs'
          ? 'here but different: fetch'
          : 'fetch';
  const out = [
    `plan (dry run, nothing fetched): ${plan.repo} @ ${plan.commit.slice(0, 12)}` +
      `${plan.iteration !== null ? ` ${plan.kind} iteration ${plan.iteration}` : ' logs'} into ${plan.dest}`,
  ];
  for (const x of states) out.push(`  ${formatBytes(x.it.size).padStart(9)}  ${safeLine(x.it.target)}  ${label(x)}`);
  out.push(
    `${states.length} files, ${formatBytes(states.reduce((s, x) => s + x.it.size, 0))}: ${verified} here and verified, ` +
      `${formatBytes(toFetch)} to fetch`,
  );
  if (plan.kind === 'resume')
    out.push(
      plan.latestFile
        ? `${DEST_LATEST} would name ${plan.latestFile.value} once all is verified${latestNote ? `; ${latestNote}` : ''}`
        : (latestNote ?? ''),
    );
  writeOut(out.join('\n') + '\n');
}

export const HUB: Command = {
  usage: 'hub ls <repo> [--endpoint URL] [--revision R] [--json]',
  flags: { endpoint: 'string', revision: 'string', json: 'boolean' },
  run: runHubCommand,
};

export const DOWNLOAD: Command = { usage: DOWNLOAD_USAGE, flags: DOWNLOAD_FLAGS, run: runDownloadCommand };
