/** One part of a log indexed on the calling thread: what a worker thread does with a task, and what the main thread does with its own. */
import { CreditIndex } from '../creditIndex';
import { withReadRoots } from '../logFile';
import { PartObserver } from './parts';
import type { PartResult, PartTask } from './parts';

/** The index of the whole lines of the task's byte range (`cpu` left to the caller); `signal` stops it between chunks. */
export async function indexPart(task: PartTask, signal?: AbortSignal): Promise<Omit<PartResult, 'cpu'>> {
  const observer = new PartObserver();
  const idx = new CreditIndex(task.path, task.options, task.limits, {}, observer);
  const read = (): Promise<void> => idx.indexPart(task.start, task.end, task.align, signal);
  await (task.roots ? withReadRoots(task.roots, read) : read());
  return { ...idx.partResult(), overflow: observer.overflow };
}
