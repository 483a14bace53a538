/**
 * The process that indexes one part of a log (`dist/indexWorker.js`, forked with the
 * advanced serialization): it is sent a byte range, sends back the part's index, and exits.
 */
import { errorMessage } from '../../errorMessage';
import { CreditIndex } from '../creditIndex';
import { threadCpu } from './cpu';
import { PartObserver } from './parts';
import type { PartResult, PartTask } from './parts';

async function indexPart(task: PartTask): Promise<PartResult> {
  const observer = new PartObserver();
  const idx = new CreditIndex(task.path, task.options, task.limits, {}, observer);
  await idx.indexPart(task.start, task.end, task.align);
  return { ...idx.partResult(), overflow: observer.overflow, cpu: threadCpu() };
}

/** Sends `message` to the parent, then lets this process end (its event loop is then empty). */
function reply(message: { result: PartResult } | { error: string }): void {
  process.send?.(message, undefined, {}, () => process.disconnect());
}

process.once('message', (task: PartTask) => {
  indexPart(task).then(
    (result) => reply({ result }),
    (e: unknown) => reply({ error: errorMessage(e) }),
  );
});
