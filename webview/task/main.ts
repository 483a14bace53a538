/**
 * The task view: one task across training in one run or two. Success over iterations
 * (a line per run), then each run's groups of the task by iteration, each rollout one
 * click from the trajectory browser; two checked rollouts open side by side.
 */
import { channel, h, initialState, onThemeChange, saveState } from '../common';
import { formatCredit, formatPercent, formatPlain, plural } from '../../src/shared/format';
import type { TaskHostMessage, TaskPanelState, TaskPick, TaskRunView, TaskView, TaskWebviewMessage } from '../../src/shared/protocol/task';
import { parseTaskState } from '../../src/shared/protocol/task';
import { logEl } from '../trajectories/text';
import { drawSuccess, xRange } from './chart';
import { runColourVar } from '../../src/shared/runColours';
import type { SuccessChart } from './chart';

const { post, onMessage } = channel<TaskWebviewMessage, TaskHostMessage>();
const app = document.getElementById('app')!;
const state = parseTaskState(initialState());
if (state) saveState(state);

let view: TaskView | undefined;
let chart: SuccessChart | undefined;
/** the checked rollouts, oldest first (at most two) */
let picked: TaskPick[] = [];

const pickKey = (p: TaskPick): string => `${p.run}/${p.iteration}/${p.group}/${p.rollout}`;

const title = h('h1', { id: 'task-title' }, 'Task ');
const legend = h('div', { class: 'task-legend', id: 'task-legend' });
const sideBtn = h('button', { id: 'side-by-side', class: 'primary', disabled: true }, 'Side by side');
const pickInfo = h('span', { class: 'muted', id: 'pick-info' }, 'check two rollouts to see them side by side');
const instruction = h('pre', { class: 'text task-instruction', id: 'task-instruction' });
const canvas = h('canvas', { id: 'success-chart', role: 'img', 'aria-label': 'success over iterations, a line per run' });
const runsEl = h('div', { id: 'task-runs', class: 'task-runs' });
app.append(
  h('div', { class: 'toolbar' }, title, legend, sideBtn, pickInfo),
  instruction,
  h('h2', {}, 'Success over iterations'),
  h('div', { class: 'task-chart' }, canvas),
  runsEl,
);

sideBtn.addEventListener('click', () => {
  // run A's rollout on the left (two of one run: the one checked first)
  const [left, right] = [...picked].sort((x, y) => x.run - y.run);
  if (left && right) post({ type: 'task/sideBySide', left, right });
});

function togglePick(p: TaskPick, on: boolean): void {
  picked = picked.filter((x) => pickKey(x) !== pickKey(p));
  if (on) picked.push(p);
  // a third check lets go of the oldest
  while (picked.length > 2) picked.shift();
  for (const box of runsEl.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
    box.checked = picked.some((x) => pickKey(x) === box.dataset['key']);
  sideBtn.disabled = picked.length !== 2;
  const names = view?.runs.map((r) => r.name) ?? [];
  pickInfo.textContent =
    picked.length === 0
      ? 'check two rollouts to see them side by side'
      : picked.map((x) => `${names.length > 1 ? `${names[x.run] ?? ''} ` : ''}${x.iteration}/${x.group}/${x.rollout}`).join(' and ');
}

/** A rollout's checkbox and link; `runName` names the run in the checkbox's label (the same key is in every run). */
function rolloutChip(
  run: number,
  runName: string,
  iteration: number,
  group: number,
  r: TaskRunView['groups'][number]['rollouts'][number],
): HTMLElement {
  const pick: TaskPick = { run, iteration, group, rollout: r.rollout };
  const key = pickKey(pick);
  const box = h('input', {
    type: 'checkbox',
    'data-key': key,
    'aria-label': `select rollout ${r.rollout} of iteration ${iteration}, group ${group} of ${runName}`,
  });
  box.checked = picked.some((x) => pickKey(x) === key);
  box.addEventListener('change', () => togglePick(pick, box.checked));
  const cls = r.reward === null ? 'nodata' : r.reward > 0 ? 'ok' : r.reward < 0 ? 'format' : 'fail';
  const open = h(
    'button',
    {
      class: `link rollout ${cls}`,
      'data-open': key,
      title:
        `open in the trajectory browser · reward ${formatPlain(r.reward, 2)} · A ${formatCredit(r.A)} · ` +
        `${plural(r.turns, 'turn')}${r.labeled ? ' · labeled' : ''}`,
    },
    `#${r.rollout} `,
    h('strong', {}, formatPlain(r.reward, 2)),
    r.labeled ? h('span', { class: 'lab', title: 'labeled' }, ' L') : '',
  );
  open.addEventListener('click', () => post({ type: 'task/open', ...pick }));
  return h('span', { class: 'rollout-chip', 'data-rollout': r.rollout }, box, open);
}

function runSection(r: TaskRunView, i: number): HTMLElement {
  const its = new Set(r.groups.map((g) => g.iteration)).size;
  const head = h(
    'h2',
    {},
    h('span', { class: 'swatch' }),
    `${r.name} `,
    h(
      'span',
      { class: 'muted' },
      r.note ??
        `${plural(r.trajectories, 'trajectory', 'trajectories')} in ${plural(r.groups.length, 'group')} over ${plural(its, 'iteration')}`,
    ),
  );
  (head.firstChild as HTMLElement).style.background = runColourVar(i);
  const table = h(
    'div',
    { class: 'groups', role: 'table', 'aria-label': `groups of the task in ${r.name}` },
    h(
      'div',
      { class: 'grow ghead', role: 'row' },
      ...['iteration', 'group', 'success', 'labeled', 'rollouts (reward; click opens, check to compare)'].map((t) =>
        h('span', { role: 'columnheader' }, t),
      ),
    ),
  );
  for (const g of r.groups)
    table.append(
      h(
        'div',
        { class: 'grow', role: 'row', 'data-run': i, 'data-iteration': g.iteration, 'data-group': g.group },
        h('span', { role: 'cell' }, String(g.iteration)),
        h('span', { role: 'cell' }, String(g.group)),
        h('span', { role: 'cell', 'data-field': 'success' }, formatPercent(g.success, 0)),
        h('span', { role: 'cell' }, `${g.labeled}/${g.rollouts.length}`),
        h('span', { role: 'cell', class: 'chips' }, ...g.rollouts.map((ro) => rolloutChip(i, r.name, g.iteration, g.group, ro))),
      ),
    );
  return h('section', { class: 'task-run', 'data-run': i }, head, r.groups.length ? table : '');
}

function render(v: TaskView): void {
  // the host reused this panel for another task (a jump from the comparison): that task is this page's state now
  if (view && v.task !== view.task) picked = [];
  if (state && v.task !== state.task) {
    const next: TaskPanelState = { ...state, task: v.task };
    saveState(next);
  }
  view = v;
  title.replaceChildren('Task ', logEl('span', { class: 'task-key', 'data-field': 'task' }, v.task, ''));
  instruction.replaceChildren(...(v.instruction === null ? [] : [logEl('span', {}, v.instruction, '')]));
  legend.replaceChildren(
    ...v.runs.map((r, i) => {
      const sw = h('span', { class: 'swatch' });
      sw.style.background = runColourVar(i);
      return h('span', { class: 'muted' }, sw, r.name);
    }),
  );
  // a rollout that is gone (a log replaced) is no longer checked
  const present = new Set(
    v.runs.flatMap((r, i) =>
      r.groups.flatMap((g) => g.rollouts.map((ro) => pickKey({ run: i, iteration: g.iteration, group: g.group, rollout: ro.rollout }))),
    ),
  );
  picked = picked.filter((p) => present.has(pickKey(p)));
  runsEl.replaceChildren(...v.runs.map(runSection));
  togglePick(picked[0] ?? { run: -1, iteration: -1, group: -1, rollout: -1 }, picked[0] !== undefined);
  chart = drawSuccess(canvas, v.runs, chart);
  // the axis's bounds in words, for a screen reader (and the end-to-end check that it ends at the last iteration with data)
  const x = xRange(v.runs);
  canvas.setAttribute('aria-label', `success over iterations${x.min === undefined ? '' : ` ${x.min} to ${x.max}`}, a line per run`);
}

onMessage((m) => {
  if (m.type === 'task/view') render(m.view);
  else if (m.type === 'error') runsEl.replaceChildren(h('div', { class: 'error', role: 'alert' }, m.message));
});
onThemeChange(() => {
  chart?.destroy();
  chart = undefined;
  if (view) render(view);
});
if (!state) runsEl.replaceChildren(h('div', { class: 'error', role: 'alert' }, 'This panel lost its task: open it again.'));
// never a blank panel: what is coming, until the host's first answer
else runsEl.replaceChildren(h('p', { class: 'muted', 'aria-busy': 'true' }, 'Reading the groups of this task from the index…'));
post({ type: 'ready' });
