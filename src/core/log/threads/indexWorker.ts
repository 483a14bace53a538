/**
 * The worker thread that indexes parts of a log (`dist/indexWorker.js`): it is sent byte
 * ranges one at a time and answers each with that part's index, its columns transferred
 * (moved, not copied: the main thread deserializes nothing but a small header).
 */
import { parentPort } from 'node:worker_threads';
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

const port = parentPort;
port?.on('message', (task: PartTask) => {
  indexPart(task).then(
    // each column is its own ArrayBuffer (`partResult` slices them): moved to the main thread
    (result) =>
      port.postMessage(
        { result },
        Object.values(result.columns).map((c) => c.buffer as ArrayBuffer),
      ),
    (e: unknown) => port.postMessage({ error: errorMessage(e) }),
  );
});
