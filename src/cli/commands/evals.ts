/** `rlrb evals <run> [--json]`: docs/format.md section 8 for one run, success and reward per checkpoint. */
import { errorDetail } from '../../core/errorMessage';
import { LogEncodingError } from '../../core/log/jsonlFile';
import type { Run } from '../../core/run/run';
import type { EvalSummary } from '../../core/eval/evalFigures';
import { formatPlain as fmt } from '../../shared/format';
import { UsageError } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS } from '../open/indexOptions';
import { locateRunWith, openSettings } from '../open/openRun';
import { safeLine } from '../output/safeText';
import { emit, isPrinted, jsonText } from '../output/printed';
import type { Printed } from '../output/printed';
import { table } from '../output/table';

const EVAL_PLACES = 'logs/eval_log.jsonl, eval/*.jsonl or logs/*eval*.jsonl';

/** Reads the run's logs (`read`) and its evaluation log; a usage error when it has none. */
async function readEvals(run: Run, read: () => Promise<void>): Promise<void> {
  await read();
  if (!run.evals) return;
  try {
    await run.updateEvals();
  } catch (e) {
    if (e instanceof LogEncodingError) throw new UsageError(e.message);
    throw new UsageError(`cannot read ${run.evals.path}: ${errorDetail(e)}`);
  }
}

/** The run at `path` with its logs and its evaluation log read; a usage error when it has none (the MCP server's `evaluations`). */
export async function openEvals(path: string, a: ParsedArgs): Promise<Run> {
  const { run, read } = await locateRunWith(path, { ...openSettings(a), needCredit: false });
  if (!run.evals) throw new UsageError(`${path}: no evaluation log (${EVAL_PLACES})`);
  await readEvals(run, read);
  return run;
}

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: rlrb ${EVALS.usage}`);
  const json = a.flags.has('json');
  const { run: opened, read } = await locateRunWith(path, { ...openSettings(a), needCredit: false });
  if (!opened.evals) throw new UsageError(`${path}: no evaluation log (${EVAL_PLACES})`);
  const printed = await opened.kept('evals', { json }, isPrinted, async (): Promise<Printed> => {
    await readEvals(opened, read);
    const summary = opened.evalSummary()!;
    const err = opened.evalWarnings().map((w) => `rlrb: warning: ${safeLine(w)}\n`);
    return { out: json ? jsonText(summary) : evalsText(opened, summary), err };
  });
  emit(printed);
  return 0;
}

/** The readable table of the evaluations. */
function evalsText(opened: Run, summary: EvalSummary): string {
  const out = [`Checkpoint evaluations: ${safeLine(opened.evals!.path)}`, ''];
  if (summary.iterations.length === 0) out.push('  no counted episode');
  else
    out.push(
      ...table([
        ['iteration', 'tasks', 'samples', 'success', 'reward'],
        ...summary.iterations.map((i) => [String(i.iteration), String(i.tasks), String(i.samples), fmt(i.success, 3), fmt(i.reward, 3)]),
      ]),
    );
  return out.join('\n') + '\n';
}

export const EVALS: Command = {
  usage: `evals <run folder, eval log or hub:owner/name[@revision]> [--json] [--map FILE] [--endpoint URL]`,
  flags: { json: 'boolean', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
