/** The two logs a demo run writes, `logs/ws_credit_log.jsonl` and `logs/ws_metrics.jsonl`, open while one function writes them. */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

export interface RunLogs {
  creditLog: string;
  metricsLog: string;
}

/** Creates `root/logs/`, opens both logs for writing, runs `write` with their descriptors, and closes both whatever happens. */
export function writeRunLogs(root: string, write: (creditFd: number, metricsFd: number) => void): RunLogs {
  mkdirSync(join(root, 'logs'), { recursive: true });
  const logs = { creditLog: join(root, 'logs', 'ws_credit_log.jsonl'), metricsLog: join(root, 'logs', 'ws_metrics.jsonl') };
  const fd = openSync(logs.creditLog, 'w');
  try {
    const mfd = openSync(logs.metricsLog, 'w');
    try {
      write(fd, mfd);
    } finally {
      closeSync(mfd);
    }
  } finally {
    closeSync(fd);
  }
  return logs;
}
