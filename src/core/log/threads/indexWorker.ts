/**
 * The worker thread that indexes parts of a log (`dist/indexWorker.js`): it is sent byte
 * ranges one at a time and answers each with that part's index, its columns transferred
 * (moved, not copied: the main thread deserializes nothing but a small header). The dataset
 * export sends it shares of a run's iterations to write (`DatasetTask`) the same way.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../errorMessage';
import { threadCpu } from './cpu';
import { indexPart } from '../creditIndex';
import type { PartResult, PartTask } from './parts';
import { writeDatasetPart } from '../../export/dataset/datasetPart';
import type { DatasetTask } from '../../export/dataset/datasetPart';

const port = parentPort;
port?.on('message', (task: PartTask | DatasetTask) => {
  if ('dataset' in task) {
    writeDatasetPart(task).then(
      (r) => port.postMessage({ result: { ...r, cpu: threadCpu() } }),
      (e: unknown) => port.postMessage({ error: errorMessage(e) }),
    );
    return;
  }
  indexPart(task).then(
    (part) => {
      const result: PartResult = { ...part, cpu: threadCpu() };
      // each column is its own ArrayBuffer (`partResult` slices them): moved to the main thread
      port.postMessage(
        { result },
        Object.values(result.columns).map((c) => c.buffer as ArrayBuffer),
      );
    },
    (e: unknown) => port.postMessage({ error: errorMessage(e) }),
  );
});
