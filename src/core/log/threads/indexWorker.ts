/** The worker thread that indexes one part of a log (`dist/indexWorker.js`): given a byte range, it sends back the part's index. */
import { parentPort, workerData } from 'node:worker_threads';
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

indexPart(workerData as PartTask).then(
  (result) => {
    const transfer = Object.values(result.columns).map((c) => c.buffer as ArrayBuffer);
    parentPort?.postMessage({ result }, transfer);
  },
  (e: unknown) => parentPort?.postMessage({ error: (e as Error).message }),
);
