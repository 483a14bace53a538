/** `rlrb evals <run> [--json]`: run-format.md section 8 for one run, success and reward per checkpoint. */
import { resolve } from 'node:path';
import { Run } from '../core/run/run';
import { isHubRef } from '../core/hub/inPlace/hubRef';
import { errorCode, errorMessage } from '../core/errorMessage';
import { LogEncodingError } from '../core/log/jsonlFile';
import { formatPlain as fmt } from '../shared/format';
import { UsageError } from './args';
import type { FlagSpec, ParsedArgs } from './args';
import { INDEX_FLAGS, indexOptions } from './indexOptions';
import { openInPlace } from './hub';
import { safeLine, writeErr, writeJson, writeOut } from './safeText';
import { table } from './table';

export const EVALS_USAGE = 'rlrb evals <run folder, eval log or hub:owner/name> [--json] [--map FILE] [--endpoint URL]';

async function openEvals(path: string, a: ParsedArgs): Promise<Run> {
  const opts = indexOptions(a);
  const run = isHubRef(path) ? await openInPlace(path, a, opts) : await Run.open(resolve(path), opts);
  if (!run) throw new UsageError(`${path}: no run here (expected logs/eval_log.jsonl, eval/*.jsonl or logs/*eval*.jsonl)`);
  if (!run.evals) throw new UsageError(`${path}: no evaluation log (logs/eval_log.jsonl, eval/*.jsonl or logs/*eval*.jsonl)`);
  try {
    await run.updateEvals();
  } catch (e) {
    if (e instanceof LogEncodingError) throw new UsageError(e.message);
    throw new UsageError(`cannot read ${run.evals.path}: ${errorCode(e) ?? errorMessage(e)}`);
  }
  return run;
}

async function cmdEvals(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path) throw new UsageError(`usage: ${EVALS_USAGE}`);
  const run = await openEvals(path, a);
  const summary = run.evalSummary()!;
  for (const w of run.evalWarnings()) writeErr(`rlrb: warning: ${safeLine(w)}\n`);
  if (a.flags.has('json')) {
    writeJson(summary);
    return 0;
  }
  const out = [`Checkpoint evaluations: ${safeLine(run.evals!.path)}`, ''];
  if (summary.iterations.length === 0) out.push('  no counted episode');
  else
    out.push(
      ...table([
        ['iteration', 'tasks', 'samples', 'success', 'reward'],
        ...summary.iterations.map((i) => [String(i.iteration), String(i.tasks), String(i.samples), fmt(i.success, 3), fmt(i.reward, 3)]),
      ]),
    );
  writeOut(out.join('\n') + '\n');
  return 0;
}

export const EVALS_COMMAND: { flags: FlagSpec; run(a: ParsedArgs): Promise<number> } = {
  flags: { json: 'boolean', endpoint: 'string', ...INDEX_FLAGS },
  run: cmdEvals,
};
