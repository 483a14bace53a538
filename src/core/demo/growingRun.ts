/**
 * A run that grows while someone follows it (docs/format.md section 10): the demo's logs cut by
 * iteration and written out stage by stage, with real checkpoints (section 9 reads them). A stage
 * that extends the one before is appended, as a trainer appends; any other is written anew.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemo } from './demo';
import { safetensorsBytes, writeDemoResume } from './checkpoints';
import { iterDirName } from '../hub/model';

export type GrowCheckpoint = ['resume' | 'hf', number];

export interface Stage {
  /** credit-log iterations written whole: 0..credit-1 */
  credit: number;
  /** metrics rows written: iterations 0..metrics-1 */
  metrics: number;
  /** iterations with evaluation lines, and how many episodes each (plain lines: a task of three, reward 0 or 1) */
  evals?: readonly [number, number][];
  /** iterations whose evaluation the demo writes (its tasks and samples), all of it */
  demoEvals?: readonly number[];
  /** complete checkpoint folders */
  checkpoints?: readonly GrowCheckpoint[];
  /** a metrics field overwritten in one iteration's row (a logged figure that disagrees with its twin) */
  override?: { iteration: number; field: string; value: number };
}

export interface GrowingRun {
  dir: string;
  /** the demo iterations there are to show */
  iterations: number;
  /** the credit log's lines of each iteration (240 a demo iteration) */
  creditLines: string[][];
  show(s: Stage): void;
}

/** The line's iteration: the demo writes it first (and a metrics row may hold Python's NaN, which JSON.parse refuses). */
const iterOf = (line: string): number => Number(/^\{"iteration":\s*(\d+)/.exec(line)?.[1] ?? -1);

function byIteration(text: string, n: number): string[][] {
  const out: string[][] = Array.from({ length: n }, () => []);
  for (const l of text.split('\n')) if (l.trim()) out[iterOf(l)]?.push(l);
  return out;
}

/** A real checkpoint (section 9 reads its `.metadata` or safetensors header), complete. */
export function writeCheckpoint(dir: string, kind: 'resume' | 'hf', it: number): void {
  const d = join(dir, kind, iterDirName(it));
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

/** Writes `lines` to `path`: only the new ones when `before` (what the file holds, as written here) is their start. */
function writeLines(path: string, before: readonly string[] | undefined, lines: readonly string[]): void {
  const extends_ = before !== undefined && before.length <= lines.length && before.every((l, i) => l === lines[i]);
  const text = (ls: readonly string[]): string => (ls.length > 0 ? ls.join('\n') + '\n' : '');
  if (extends_) {
    if (lines.length > before.length) appendFileSync(path, text(lines.slice(before.length)));
  } else writeFileSync(path, text(lines));
}

/** The demo's first `iterations` iterations (240 trajectories each), shown stage by stage in `dir` (its logs/, resume/ and hf/). */
export function growingRun(dir: string, iterations: number): GrowingRun {
  const src = mkdtempSync(join(tmpdir(), 'rlrb-grow-'));
  let creditLines: string[][];
  let metricRows: string[];
  let demoEvalLines: string[][];
  try {
    const d = writeDemo(src, { trajectories: iterations * 240, hubRepo: false, baseline: false });
    creditLines = byIteration(readFileSync(d.creditLog, 'utf8'), iterations);
    metricRows = byIteration(readFileSync(d.metricsLog, 'utf8'), iterations).map((r) => r[0]!);
    demoEvalLines = byIteration(readFileSync(d.evalLog, 'utf8'), iterations);
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const written = new Map<string, string[]>();
  const checkpoints = new Set<string>();
  const put = (name: string, lines: string[]): void => {
    const path = join(dir, 'logs', name);
    writeLines(path, written.get(path), lines);
    written.set(path, lines);
  };
  const show = (s: Stage): void => {
    // the checkpoints first: a follower that sees the logs move sees the checkpoint written with them
    for (const [kind, it] of s.checkpoints ?? []) {
      if (checkpoints.has(`${kind}${it}`)) continue;
      writeCheckpoint(dir, kind, it);
      checkpoints.add(`${kind}${it}`);
    }
    const evals = [
      ...(s.evals ?? []).flatMap(([it, n]) =>
        Array.from({ length: n }, (_, k) => JSON.stringify({ iteration: it, task_id: `task-${k % 3}`, sample: k, reward: k % 2 })),
      ),
      ...(s.demoEvals ?? []).flatMap((it) => demoEvalLines[it] ?? []),
    ];
    if (evals.length > 0) put('eval_log.jsonl', evals);
    put('ws_credit_log.jsonl', creditLines.slice(0, s.credit).flat());
    put(
      'ws_metrics.jsonl',
      metricRows.slice(0, s.metrics).map((r) => {
        const o = s.override;
        if (!o || iterOf(r) !== o.iteration) return r;
        // edited as text: the row may hold NaN, which JSON.parse refuses
        const key = JSON.stringify(o.field);
        const at = r.indexOf(`${key}:`);
        if (at < 0) return r.replace(/\}$/, `,${key}:${JSON.stringify(o.value)}}`);
        const end = r.slice(at + key.length + 1).search(/[,}]/) + at + key.length + 1;
        return `${r.slice(0, at + key.length + 1)}${JSON.stringify(o.value)}${r.slice(end)}`;
      }),
    );
  };
  return { dir, iterations, creditLines, show };
}

/** A resume checkpoint every this many iterations (the last of each block), an hf one every two of them. */
const RESUME_EVERY = 5;

/**
 * What a demo run that trains looks like after its first `n` iterations: their logs, a resume
 * checkpoint at every fifth iteration and an hf one at every tenth and the last, and each
 * hf checkpoint's evaluation once the next iteration is in (the last one's when the run ends).
 */
export function demoStage(n: number, iterations: number): Stage {
  const checkpoints: GrowCheckpoint[] = [];
  const demoEvals: number[] = [];
  for (let it = 0; it < n; it++) {
    if (it % RESUME_EVERY === RESUME_EVERY - 1) checkpoints.push(['resume', it]);
    const hf = it % (2 * RESUME_EVERY) === 2 * RESUME_EVERY - 1 || it === iterations - 1;
    if (hf) checkpoints.push(['hf', it]);
    if (hf && (it + 1 < n || n === iterations)) demoEvals.push(it);
  }
  return { credit: n, metrics: n, checkpoints, demoEvals };
}
