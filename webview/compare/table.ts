/**
 * The per-task table: pages of rows from the host (sorted and filtered there), only the
 * visible rows in the DOM, a sortable header, and the filter shown as a chip with clear.
 */
import { logNodes } from '../trajectories/text';
import { h } from '../common';
import { formatCount, formatFigure, formatRate, plural } from '../../src/shared/format';
import type { CompareTasksMessage, QueryTasksMessage, TaskRowView, TaskSortKeyView, TaskSortView } from '../../src/shared/protocol/compare';

const ROW_H = 24;
const PAGE = 200;

interface Column {
  key: TaskSortKeyView;
  label: string;
  num: boolean;
  cell: (r: TaskRowView) => string;
}

const COLUMNS: readonly Column[] = [
  { key: 'task', label: 'task', num: false, cell: (r) => r.task },
  { key: 'successA', label: "A's success", num: true, cell: (r) => formatRate(r.successA, 3) },
  { key: 'successB', label: "B's success", num: true, cell: (r) => formatRate(r.successB, 3) },
  { key: 'diff', label: 'A − B', num: true, cell: (r) => formatFigure(r.diff, 3) },
  { key: 'trajectoriesA', label: 'trajectories in A', num: true, cell: (r) => formatCount(r.trajectoriesA) },
  { key: 'trajectoriesB', label: 'trajectories in B', num: true, cell: (r) => formatCount(r.trajectoriesB) },
];

export interface TaskTableOptions {
  sort: TaskSortView;
  text: string;
  scrollTop: number;
  query: (q: Omit<QueryTasksMessage, 'type'>) => void;
  open: (task: string) => void;
  /** the sort, the filter or the scroll changed (to save in the page's state) */
  changed: (sort: TaskSortView, text: string, scrollTop: number) => void;
}

export class TaskTable {
  readonly el: HTMLElement;
  private sort: TaskSortView;
  private text: string;
  private seq = 0;
  private total = -1;
  private readonly rows = new Map<number, TaskRowView>();
  private readonly pending = new Set<number>();
  private readonly header = h('div', { class: 'task-row task-head', role: 'row' });
  private readonly chips = h('div', { class: 'chips', id: 'task-chips' });
  private readonly status = h('div', { class: 'muted', id: 'task-status', role: 'status' });
  private readonly input: HTMLInputElement;
  /** the rows' group of the frame's grid (the header row is the grid's first) */
  private readonly viewport = h('div', {
    class: 'task-viewport',
    id: 'task-table',
    role: 'rowgroup',
    tabindex: 0,
    'aria-label': 'Tasks, rows',
  });
  private readonly spacer = h('div', { class: 'task-spacer' });
  private restoreTop: number;
  private stale = false;

  constructor(private readonly o: TaskTableOptions) {
    this.sort = o.sort;
    this.text = o.text;
    this.restoreTop = o.scrollTop;
    this.input = h('input', { type: 'text', id: 'task-filter', placeholder: 'Filter tasks by text', 'aria-label': 'filter tasks by text' });
    this.input.value = this.text;
    let t: number | undefined;
    this.input.addEventListener('input', () => {
      clearTimeout(t);
      t = window.setTimeout(() => this.setText(this.input.value), 150);
    });
    this.viewport.append(this.spacer);
    this.viewport.addEventListener('scroll', () => {
      this.render();
      this.o.changed(this.sort, this.text, this.viewport.scrollTop);
    });
    this.el = h(
      'div',
      { class: 'task-table' },
      h('div', { class: 'toolbar' }, this.input, this.chips),
      this.status,
      h('div', { class: 'task-frame', role: 'grid', 'aria-label': 'Tasks' }, this.header, this.viewport),
    );
    this.renderHeader();
    this.renderChips();
  }

  /** Asks the host for the first page under the current query (after new data too). */
  refresh(): void {
    this.seq++;
    // the rows shown stay until the new query's first page replaces them (no flicker on a live update)
    this.stale = true;
    this.pending.clear();
    const top = this.restoreTop || this.viewport.scrollTop;
    this.request(Math.max(0, Math.floor(top / ROW_H) - 5));
  }

  private request(index: number): void {
    const offset = Math.max(0, Math.floor(index / (PAGE / 2)) * (PAGE / 2));
    if (this.pending.has(offset)) return;
    this.pending.add(offset);
    this.o.query({ seq: this.seq, sort: this.sort, text: this.text, offset, limit: PAGE });
  }

  receive(m: CompareTasksMessage): void {
    if (m.seq !== this.seq) return;
    if (this.stale) {
      this.stale = false;
      this.rows.clear();
    }
    this.total = m.total;
    m.rows.forEach((r, i) => this.rows.set(m.offset + i, r));
    this.render();
    if (this.restoreTop > 0 && this.total > 0) {
      this.viewport.scrollTop = this.restoreTop;
      this.restoreTop = 0;
    }
  }

  private setText(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.input.value = text;
    this.viewport.scrollTop = 0;
    this.renderChips();
    this.refresh();
    this.o.changed(this.sort, this.text, 0);
  }

  private setSort(key: TaskSortKeyView): void {
    // again on the same column: the other way; a new column starts where a reader looks first
    this.sort = this.sort.key === key ? { key, descending: !this.sort.descending } : { key, descending: key !== 'task' };
    this.viewport.scrollTop = 0;
    this.renderHeader();
    this.renderChips();
    this.refresh();
    this.o.changed(this.sort, this.text, 0);
  }

  private renderHeader(): void {
    this.header.replaceChildren(
      ...COLUMNS.map((c) => {
        const on = this.sort.key === c.key;
        const arrow = on ? (this.sort.descending ? ' ▼' : ' ▲') : '';
        const b = h(
          'button',
          {
            class: `th${c.num ? ' num' : ''}${on ? ' sorted' : ''}`,
            'data-sort': c.key,
            role: 'columnheader',
            'aria-sort': on ? (this.sort.descending ? 'descending' : 'ascending') : 'none',
            title: `Sort by ${c.label}`,
          },
          c.label + arrow,
        );
        b.addEventListener('click', () => this.setSort(c.key));
        return b;
      }),
    );
  }

  private renderChips(): void {
    const col = COLUMNS.find((c) => c.key === this.sort.key)!;
    const sortChip = h(
      'span',
      { class: 'chip', 'data-chip': 'sort' },
      `sorted by ${col.label}, ${this.sort.descending ? 'descending' : 'ascending'}`,
    );
    if (this.text.trim() === '') {
      this.chips.replaceChildren(sortChip);
      return;
    }
    const x = h(
      'button',
      { 'aria-label': 'clear the filter', title: 'clear the filter', id: 'clear-filter' },
      h('i', { class: 'codicon codicon-close' }),
    );
    x.addEventListener('click', () => this.setText(''));
    this.chips.replaceChildren(h('span', { class: 'chip', 'data-chip': 'text' }, `task contains “${this.text.trim()}”`, x), sortChip);
  }

  private render(): void {
    if (this.total < 0) {
      this.status.textContent = 'loading tasks…';
      return;
    }
    this.status.textContent =
      this.total === 0 ? (this.text.trim() ? 'No task matches this filter.' : 'No task in the window.') : plural(this.total, 'task');
    this.spacer.style.height = `${this.total * ROW_H}px`;
    const top = this.viewport.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW_H) - 5);
    const last = Math.min(this.total, first + Math.ceil((this.viewport.clientHeight || 400) / ROW_H) + 10);
    const out: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const r = this.rows.get(i);
      if (!r) {
        if (!this.stale) this.request(i);
        continue;
      }
      const row = h(
        'div',
        { class: 'task-row', role: 'row', tabindex: -1, 'data-index': i, 'data-task': r.task, title: 'Open this task in the task view' },
        ...COLUMNS.map((c) =>
          h(
            'span',
            { class: `${c.num ? 'num' : 'task-name'}${c.key === 'diff' ? diffClass(r.diff) : ''}`, role: 'gridcell' },
            ...(c.num ? [c.cell(r)] : logNodes(c.cell(r))),
          ),
        ),
      );
      row.style.top = `${i * ROW_H}px`;
      row.addEventListener('click', () => this.o.open(r.task));
      row.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') this.o.open(r.task);
      });
      out.push(row);
    }
    this.spacer.replaceChildren(...out);
  }
}

function diffClass(d: number | null): string {
  return d === null || d === 0 ? '' : d > 0 ? ' mark-pass' : ' mark-fail';
}
