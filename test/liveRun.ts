/** A run that grows while a test watches it: the demo's logs cut by iteration, written out stage by stage. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemo } from '../src/core/demo/demo';
import { safetensorsBytes, writeDemoResume } from '../src/core/demo/checkpoints';
import { tempDir } from './helpers';

export interface Stage {
  /** credit-log iterations written whole: 0..credit-1 */
  credit: number;
  /** metrics rows written: iterations 0..metrics-1 */
  metrics: number;
  /** iterations with evaluation lines, and how many episodes each */
  evals?: [number, number][];
  /** complete checkpoint folders */
  checkpoints?: ['resume' | 'hf', number][];
  /** a metrics field overwritten in one iteration's row (a logged figure that disagrees with its twin) */
  override?: { iteration: number; field: string; value: number };
}

export interface GrowingRun {
  dir: string;
  /** the credit log's lines of each iteration (240 a demo iteration) */
  creditLines: string[][];
  show(s: Stage): void;
}

const iterOf = (line: string): number => (JSON.parse(line) as { iteration: number }).iteration;

function byIteration(text: string, n: number): string[][] {
  const out: string[][] = Array.from({ length: n }, () => []);
  for (const l of text.split('\n')) if (l.trim()) out[iterOf(l)]?.push(l);
  return out;
}

const pad = (n: number): string => `iter_${String(n).padStart(7, '0')}`;

/** A real checkpoint (section 9 reads its `.metadata` or safetensors header), complete. */
function writeCheckpoint(dir: string, kind: 'resume' | 'hf', it: number): void {
  const d = join(dir, kind, pad(it));
  mkdirSync(d, { recursive: true });
  const fill = (n: number): Buffer => Buffer.alloc(n, it);
  if (kind === 'resume') {
    writeDemoResume(d, fill, false);
    writeFileSync(join(d, 'common.pt'), `common of ${it}`);
    writeFileSync(join(d, 'metadata.json'), JSON.stringify({ sharded_backend: 'torch_dist', iteration: it }));
  } else {
    writeFileSync(join(d, 'config.json'), '{"architectures":["Qwen3ForCausalLM"]}');
    writeFileSync(join(d, 'model.safetensors'), safetensorsBytes([{ name: 'lm_head.weight', shape: [4, 8] }], fill));
  }
}

/** The demo's first `iterations` iterations (240 trajectories each), shown stage by stage in a fresh folder. */
export function growingRun(iterations: number): GrowingRun {
  const src = tempDir('rlrb-live-src-');
  const d = writeDemo(src, { trajectories: iterations * 240, hubRepo: false, baseline: false });
  const creditLines = byIteration(readFileSync(d.creditLog, 'utf8'), iterations);
  const metricRows = byIteration(readFileSync(d.metricsLog, 'utf8'), iterations).map((r) => r[0]!);
  const dir = tempDir('rlrb-live-run-');
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const show = (s: Stage): void => {
    writeFileSync(join(dir, 'logs', 'ws_credit_log.jsonl'), creditLines.slice(0, s.credit).flat().join('\n') + '\n');
    const rows = metricRows.slice(0, s.metrics).map((r) => {
      const o = s.override;
      if (!o || iterOf(r) !== o.iteration) return r;
      return JSON.stringify({ ...(JSON.parse(r) as Record<string, unknown>), [o.field]: o.value });
    });
    writeFileSync(join(dir, 'logs', 'ws_metrics.jsonl'), rows.join('\n') + '\n');
    const evals = (s.evals ?? []).flatMap(([it, n]) =>
      Array.from({ length: n }, (_, k) => JSON.stringify({ iteration: it, task_id: `task-${k % 3}`, sample: k, reward: k % 2 })),
    );
    if (evals.length > 0) writeFileSync(join(dir, 'logs', 'eval_log.jsonl'), evals.join('\n') + '\n');
    for (const [kind, it] of s.checkpoints ?? []) writeCheckpoint(dir, kind, it);
  };
  return { dir, creditLines, show };
}
