/**
 * A Jupyter notebook (nbformat 4.5) over an exported selection: a markdown cell naming
 * the run and the filter, a cell that loads the export with pandas, and one that plots
 * the mean reward per iteration with matplotlib. Every string that reaches Python is a
 * JSON string literal, which Python reads as the same string (`\"`, `\\`, `\n`, `\uXXXX`…
 * mean the same in both); every string that reaches markdown is escaped or a code span.
 */
import type { ExportFormat } from '../export/exportRows';

export interface NotebookOptions {
  /** the run as the user knows it: its folder name, or `owner/name@revision` */
  runName: string;
  /** where the run is: a local path or a Hub repo */
  runLocation: string;
  /** the filter in words (`describeFilter`) */
  selection: string;
  /** the exported file, as Python should open it (absolute) */
  dataPath: string;
  format: ExportFormat;
  rows?: number;
  /** column names of iteration and reward in the data (CSV: always these; JSONL: the log's own names) */
  iterationField?: string;
  rewardField?: string;
}

interface Cell {
  id: string;
  cell_type: 'markdown' | 'code';
  metadata: Record<string, never>;
  source: string[];
  execution_count?: null;
  outputs?: never[];
}

export interface Notebook {
  nbformat: 4;
  nbformat_minor: 5;
  metadata: { kernelspec: { name: string; display_name: string; language: string }; language_info: { name: string } };
  cells: Cell[];
}

/** A Python string literal for `s` (a JSON string literal is one, with the same meaning). */
export function pythonString(s: string): string {
  return JSON.stringify(s);
}

const oneLine = (s: string): string => s.replace(/[\r\n\u2028\u2029]+/g, ' ');

/** Markdown text that shows `s` as it is: no markup, no HTML, no math, no line breaks. */
export function markdownText(s: string): string {
  return oneLine(s).replace(/[\\`*_{}[\]()#+\-.!|~<>&$]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`,
  );
}

/** A markdown code span that shows `s` as it is: a fence longer than any run of backticks in it. */
export function markdownCode(s: string): string {
  const text = oneLine(s);
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** nbformat keeps a cell's source as lines, each but the last ending in `\n`. */
function lines(text: string): string[] {
  const parts = text.split('\n');
  return parts.map((l, i) => (i < parts.length - 1 ? `${l}\n` : l)).filter((l) => l !== '');
}

function markdown(id: string, text: string): Cell {
  return { id, cell_type: 'markdown', metadata: {}, source: lines(text) };
}

function code(id: string, text: string): Cell {
  return { id, cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: lines(text) };
}

function heading(o: NotebookOptions): string {
  const what = o.format === 'jsonl' ? 'JSONL (the original records)' : 'CSV (one row per trajectory)';
  return [
    `# Trajectories of ${markdownText(o.runName)}`,
    '',
    `- Run: ${markdownCode(o.runLocation)}`,
    `- Selection: ${markdownText(o.selection)}${o.rows !== undefined ? ` (${o.rows} trajectories)` : ''}`,
    `- Exported as ${what} to ${markdownCode(o.dataPath)}`,
  ].join('\n');
}

function loadCell(o: NotebookOptions): string {
  const read = o.format === 'jsonl' ? 'pd.read_json(path, lines=True)' : 'pd.read_csv(path)';
  return [
    'import pandas as pd',
    '',
    `path = ${pythonString(o.dataPath)}`,
    `ITERATION = ${pythonString(o.iterationField ?? 'iteration')}`,
    `REWARD = ${pythonString(o.rewardField ?? 'reward')}`,
    '',
    `df = ${read}`,
    'df',
  ].join('\n');
}

const PLOT_CELL = [
  'import matplotlib.pyplot as plt',
  '',
  'reward = pd.to_numeric(df[REWARD], errors="coerce")',
  'per_iteration = reward.groupby(df[ITERATION]).mean()',
  'ax = per_iteration.plot(marker="o")',
  'ax.set_xlabel("iteration")',
  'ax.set_ylabel("mean reward")',
  'ax.set_title("Mean reward per iteration")',
  'plt.show()',
].join('\n');

export function buildNotebook(o: NotebookOptions): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
    },
    cells: [markdown('selection', heading(o)), code('load', loadCell(o)), code('reward-by-iteration', PLOT_CELL)],
  };
}

/** The `.ipynb` file's text. */
export function notebookText(o: NotebookOptions): string {
  return JSON.stringify(buildNotebook(o), null, 1) + '\n';
}
