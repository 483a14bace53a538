/**
 * The process that indexes parts of a log (`dist/indexWorker.js`, forked with the advanced
 * serialization): it is sent byte ranges one at a time, answers each with that part's index,
 * and ends when its parent closes the channel.
 */
import { errorMessage } from '../../errorMessage';
import { CreditIndex } from '../creditIndex';
import { withReadRoots } from '../logFile';
import { threadCpu } from './cpu';
import { PartObserver } from './parts';
import type { PartResult, PartTask } from './parts';

async function indexPart(task: PartTask): Promise<PartResult> {
  const observer = new PartObserver();
  const idx = new CreditIndex(task.path, task.options, task.limits, {}, observer);
  const read = (): Promise<void> => idx.indexPart(task.start, task.end, task.align);
  await (task.roots ? withReadRoots(task.roots, read) : read());
  return { ...idx.partResult(), overflow: observer.overflow, cpu: threadCpu() };
}

process.on('message', (task: PartTask) => {
  indexPart(task).then(
    (result) => process.send?.({ result }),
    (e: unknown) => process.send?.({ error: errorMessage(e) }),
  );
});
// the parent closed the channel: the event loop is then empty and the process ends
process.once('disconnect', () => process.removeAllListeners('message'));
