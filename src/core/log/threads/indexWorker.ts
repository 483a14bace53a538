/**
 * The worker thread that indexes parts of a log (`dist/indexWorker.js`): it is sent byte
 * ranges one at a time and answers each with that part's index, its columns transferred
 * (moved, not copied: the main thread deserializes nothing but a small header).
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../errorMessage';
import { threadCpu } from './cpu';
import { indexPart } from '../creditIndex';
import type { PartResult, PartTask } from './parts';

const port = parentPort;
port?.on('message', (task: PartTask) => {
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
