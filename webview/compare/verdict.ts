/**
 * The comparison's verdict (docs/format.md section 8): at each common checkpoint, A's task success
 * minus B's on the same tasks with its 95% interval (an interval chart over iterations), the
 * final checkpoint and the pooled figure in words and numbers, then the per-task table at a chosen checkpoint.
 */
import { Chart, Filler, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import { dataRange, h, lineOptions, themeColor } from '../common';
import { levelDataset, lineDataset as ds, translucent } from '../lineDataset';
import { formatCount, formatP, formatRate, formatSigned } from '../../src/shared/format';
import type { VerdictFiguresView, VerdictTaskView, VerdictView } from '../../src/shared/protocol/compareVerdict';
import { logNodes } from '../trajectories/text';
import { conclusionClass, conclusionColour } from './verdictLook';
import { watchScrollCue } from '../scrollCueWatch';
import { afterPaint } from '../afterPaint';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend, Filler);

type Points = { x: number; y: number }[];

const num = (v: number | null, text: string): HTMLElement => h('td', { class: 'num', 'data-value': String(v) }, text);

function figuresRow(key: string, label: string, f: VerdictFiguresView): HTMLElement {
  return h(
    'tr',
    { 'data-key': key, 'data-conclusion': f.conclusion },
    h('td', {}, label),
    h('td', { class: conclusionClass(f.conclusion) }, f.verdict),
    num(f.tasks, formatCount(f.tasks)),
    num(f.successA, formatRate(f.successA, 3)),
    num(f.successB, formatRate(f.successB, 3)),
    num(f.meanDiff, formatSigned(f.meanDiff, 3)),
    num(f.lo, formatSigned(f.lo, 3)),
    num(f.hi, formatSigned(f.hi, 3)),
    num(f.p, formatP(f.p)),
    num(f.mde80, f.mde80 === null ? '—' : `±${formatRate(f.mde80, 3)}`),
    num(f.wins, formatCount(f.wins)),
    num(f.losses, formatCount(f.losses)),
    num(f.ties, formatCount(f.ties)),
  );
}

function figuresTable(v: VerdictView): HTMLElement {
  const heads = [
    '',
    'verdict',
    'tasks',
    'A',
    'B',
    'A − B',
    '95% CI low',
    '95% CI high',
    'p',
    'would show (80%)',
    'tasks A ahead',
    'tasks B ahead',
    'tied',
  ];
  const t = h(
    'table',
    { class: 'grid', id: 'verdict-figures', tabindex: 0, 'aria-label': 'the verdict’s figures' },
    h('tr', {}, ...heads.map((x, i) => h('th', i > 1 ? { class: 'num' } : {}, x))),
  );
  if (v.final) t.append(figuresRow('final', `final checkpoint (iteration ${v.final.iteration})`, v.final));
  if (v.pooled) t.append(figuresRow('pooled', 'pooled over the common checkpoints', v.pooled));
  for (const p of v.perIteration)
    if (p.iteration !== v.final?.iteration) t.append(figuresRow(`it-${p.iteration}`, `iteration ${p.iteration}`, p));
  return t;
}

/** The difference rows sorted by A − B, largest first; a task one run did not evaluate there last. */
function sortedRows(rows: readonly VerdictTaskView[]): VerdictTaskView[] {
  return [...rows].sort((x, y) => (x.diff === null ? (y.diff === null ? 0 : 1) : y.diff === null ? -1 : y.diff - x.diff));
}

/** The per-task table's header line: which checkpoint, and a choice of another. */
function checkpointSelect(its: readonly number[], at: number, pick: (iteration: number) => void): HTMLSelectElement {
  const select = h('select', { id: 'verdict-checkpoint', 'aria-label': 'checkpoint of the per-task table' });
  for (const it of its) select.append(h('option', { value: String(it), ...(it === at ? { selected: true } : {}) }, `iteration ${it}`));
  select.addEventListener('change', () => pick(Number(select.value)));
  return select;
}

export class VerdictSection {
  readonly el = h('div', { id: 'verdict' });
  private chart: Chart | undefined;
  private last: VerdictView | undefined;
  /** the checkpoint the user picked (undefined: the last) */
  private chosen: number | undefined;
  /** the rows the page holds: one checkpoint's (null rows: the host had none there) */
  private held: { iteration: number; rows: VerdictTaskView[] | null } | undefined;
  /** the request the page waits for; an answer to any other is stale */
  private pending: { seq: number; iteration: number } | undefined;
  private seq = 0;
  private readonly table = h('div', { id: 'verdict-tasks-table' });
  private readonly canvas = h('canvas', {
    id: 'verdict-chart',
    role: 'img',
    'aria-label': "A's task success minus B's at each common checkpoint, with its 95% interval",
  });

  /**
   * `open`: a task's eval episodes at a checkpoint, in both runs; `ask`: another checkpoint's
   * per-task rows from the host (answered through `receive`)
   */
  constructor(
    private readonly open: (task: string, iteration: number) => void,
    private readonly ask: (seq: number, iteration: number) => void,
  ) {}

  render(v: VerdictView): void {
    this.last = v;
    this.take(v);
    this.chart?.destroy();
    this.chart = undefined;
    if (!v.available) {
      this.el.replaceChildren(h('p', { class: 'muted', id: 'verdict-missing' }, v.missing));
      return;
    }
    const lines = [h('p', { class: `verdict-words ${conclusionClass(v.conclusion)}`, id: 'verdict-final' }, v.finalWords)];
    // pooled and final concluding differently is part of the headline: both are said, alike
    const pooled = v.disagree ? `verdict-words ${conclusionClass(v.pooled?.conclusion ?? null)}` : 'muted';
    if (v.pooledWords) lines.push(h('p', { id: 'verdict-pooled', class: pooled }, v.pooledWords));
    const note = h(
      'p',
      { class: 'muted' },
      'Checkpoint evaluations: both runs on the same tasks at the same iterations, ' +
        'a task’s success the share of its episodes with reward > 0. ' +
        'The verdict rests on these.',
    );
    const wide = h('div', { class: 'wide-scroll' }, figuresTable(v));
    const cue = h('div', { class: 'scroll-cue muted', 'aria-hidden': 'true' });
    this.el.replaceChildren(...lines, note, h('div', { class: 'chart-box small' }, this.canvas), cue, wide, this.tasks(v));
    watchScrollCue(wide, cue);
    // the chart once the words and tables are on the screen (a checkpoint a point, hundreds of them on a long run);
    // a later verdict's before then replaces it
    if (v.perIteration.length > 0)
      afterPaint(() => {
        if (this.last === v && !this.chart) this.draw(v);
      });
  }

  redraw(): void {
    if (this.last) this.render(this.last);
  }

  /** The host's answer to `ask`: shown unless the user picked another checkpoint since. */
  receive(m: { seq: number; iteration: number; rows: VerdictTaskView[] | null }): void {
    if (m.seq !== this.pending?.seq) return;
    this.pending = undefined;
    this.held = { iteration: m.iteration, rows: m.rows };
    this.fillTable();
  }

  /** The checkpoint shown: the one picked while the host still has it, else the last. */
  private shownAt(v: VerdictView): number | undefined {
    if (this.chosen !== undefined && !v.checkpoints.includes(this.chosen)) this.chosen = undefined;
    return this.chosen ?? v.checkpoints[0];
  }

  /** A new verdict brings the rows of the host's choice: kept when they are the shown checkpoint's, else asked for. */
  private take(v: VerdictView): void {
    const at = this.shownAt(v);
    if (at === undefined) {
      this.held = undefined;
      this.pending = undefined;
    } else if (v.tasks?.iteration === at) {
      this.held = { iteration: at, rows: v.tasks.rows };
      this.pending = undefined;
    } else if (this.pending?.iteration !== at) this.request(at);
  }

  private request(iteration: number): void {
    this.pending = { seq: ++this.seq, iteration };
    this.ask(this.pending.seq, iteration);
  }

  private pick(iteration: number): void {
    this.chosen = iteration;
    if (this.held?.iteration !== iteration) this.request(iteration);
    else this.pending = undefined;
    this.fillTable();
  }

  private tasks(v: VerdictView): HTMLElement {
    const box = h('div', { id: 'verdict-tasks-box' });
    const at = this.shownAt(v);
    if (at === undefined) return box;
    box.append(
      h(
        'h3',
        {},
        'Per task at ',
        checkpointSelect(v.checkpoints, at, (it) => this.pick(it)),
      ),
      this.table,
    );
    this.fillTable();
    return box;
  }

  /** The table of the shown checkpoint, or a line while its rows are on their way. */
  private fillTable(): void {
    const at = this.last && this.shownAt(this.last);
    if (at === undefined) {
      this.table.replaceChildren();
      return;
    }
    if (this.held?.iteration !== at) {
      this.table.replaceChildren(
        h('p', { class: 'muted', id: 'verdict-tasks-loading', role: 'status' }, `Loading the tasks of iteration ${at}…`),
      );
      return;
    }
    if (this.held.rows === null) {
      this.table.replaceChildren(h('p', { class: 'muted' }, `No per-task rows: iteration ${at} is not a checkpoint both runs evaluated.`));
      return;
    }
    const rows = sortedRows(this.held.rows);
    this.table.replaceChildren(
      h(
        'p',
        { class: 'muted' },
        `${formatCount(rows.length)} tasks evaluated at iteration ${at}, sorted by A − B. ` +
          "Click a task: its episodes there in A's and B's trajectory browsers, side by side.",
      ),
      h('div', { class: 'verdict-scroll' }, this.taskTable(rows, at)),
    );
  }

  private taskTable(rows: readonly VerdictTaskView[], at: number): HTMLElement {
    const head = ['task', 'A', 'B', 'A − B', 'episodes A', 'episodes B'];
    const t = h(
      'table',
      { class: 'grid', id: 'verdict-tasks' },
      h('tr', {}, ...head.map((x, i) => h('th', i > 0 ? { class: 'num' } : {}, x))),
    );
    for (const r of rows) {
      const tr = h(
        'tr',
        { class: 'clickable', 'data-task': r.task, tabindex: 0, title: `Open this task's eval episodes at iteration ${at} in both runs` },
        h('td', {}, ...logNodes(r.task)),
        num(r.successA, formatRate(r.successA, 3)),
        num(r.successB, formatRate(r.successB, 3)),
        num(r.diff, formatSigned(r.diff, 3)),
        num(r.episodesA, formatCount(r.episodesA)),
        num(r.episodesB, formatCount(r.episodesB)),
      );
      tr.addEventListener('click', () => this.open(r.task, at));
      tr.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') this.open(r.task, at);
      });
      t.append(tr);
    }
    return t;
  }

  private draw(v: VerdictView): void {
    const p = v.perIteration;
    const text = themeColor('--vscode-foreground', '#ccc');
    const grid = themeColor('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)');
    const colourOf = (q: VerdictFiguresView): string => {
      const c = conclusionColour(q.conclusion);
      return themeColor(c.variable, c.fallback);
    };
    const shown = p.filter((q) => q.meanDiff !== null);
    const pointColours = shown.map(colourOf);
    // the band is the interval, neutral; the mean's points carry each checkpoint's conclusion
    const neutral = conclusionColour('inconclusive');
    const mean = themeColor(neutral.variable, neutral.fallback);
    const band = mean;
    const zeroC = themeColor('--vscode-descriptionForeground', '#888');
    const pts = (f: (x: VerdictFiguresView) => number | null): Points =>
      p.filter((x) => f(x) !== null).map((x) => ({ x: x.iteration!, y: f(x)! }));
    const x = dataRange(p.map((q) => q.iteration!));
    this.chart = new Chart(this.canvas, {
      type: 'line',
      data: {
        datasets: [
          ds(
            '95% CI low',
            pts((q) => q.lo),
            band,
            { borderDash: [3, 3], borderWidth: 1, pointRadius: 2 },
          ),
          ds(
            '95% CI high',
            pts((q) => q.hi),
            band,
            {
              borderDash: [3, 3],
              borderWidth: 1,
              pointRadius: 2,
              fill: { target: '-1' },
              backgroundColor: translucent(band),
            },
          ),
          ds(
            'A − B (mean over tasks)',
            pts((q) => q.meanDiff),
            mean,
            { pointRadius: 4, borderWidth: 2, pointBackgroundColor: pointColours, pointBorderColor: pointColours },
          ),
          levelDataset('0 (no difference)', x, 0, zeroC),
        ],
      },
      options: lineOptions({
        text,
        grid,
        x,
        y: {},
        xTicks: { maxTicksLimit: 8 },
        yTicks: { maxTicksLimit: 6 },
        xTitle: 'checkpoint iteration',
        legend: true,
        label: (item) => `${item.dataset.label ?? ''}: ${formatSigned(item.parsed.y ?? Number.NaN, 3)}`,
      }),
    });
  }
}
