/** `rlrb evals <run> [--json]`: run-format.md section 8 for one run, success and reward per checkpoint. */
import { errorDetail } from '../../core/errorMessage';
import { LogEncodingError } from '../../core/log/jsonlFile';
import type { Run } from '../../core/run/run';
import { formatPlain as fmt } from '../../shared/format';
import { UsageError } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS } from '../open/indexOptions';
import { openRunWith, openSettings } from '../open/openRun';
import { safeLine, writeErr, writeJson, writeOut } from '../output/safeText';
import { table } from '../output/table';

const EVAL_PLACES = 'logs/eval_log.jsonl, eval/*.jsonl or logs/*eval*.jsonl';

/** The run at `path` with its evaluation log read; a usage error when it has none. */
export async function openEvals(path: string, a: ParsedArgs): Promise<Run> {
  const run = await openRunWith(path, { ...openSettings(a), needCredit: false });
  if (!run.evals) throw new UsageError(`${path}: no evaluation log (${EVAL_PLACES})`);
  try {
    await run.updateEvals();
  } catch (e) {
    if (e instanceof LogEncodingError) throw new UsageError(e.message);
    throw new UsageError(`cannot read ${run.evals.path}: ${errorDetail(e)}`);
  }
  return run;
}

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: rlrb ${EVALS.usage}`);
  const opened = await openEvals(path, a);
  const summary = opened.evalSummary()!;
  for (const w of opened.evalWarnings()) writeErr(`rlrb: warning: ${safeLine(w)}\n`);
  if (a.flags.has('json')) {
    writeJson(summary);
    return 0;
  }
  const out = [`Checkpoint evaluations: ${safeLine(opened.evals!.path)}`, ''];
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

export const EVALS: Command = {
  usage: `evals <run folder, eval log or hub:owner/name[@revision]> [--json] [--map FILE] [--endpoint URL]`,
  flags: { json: 'boolean', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
