/**
 * The browser's filter controls (iterations, group, reward, labeled, flags, text): each
 * edits the page's query in place and says so; `sync` shows a query the host set.
 */
import type { TrajectoryQuery } from '../../src/shared/shapes';
import { h } from '../common';
import { Flag } from '../../src/shared/shapes';

export interface FilterControls {
  /** the toolbar's fields, in order */
  fields: HTMLElement[];
  /** the controls showing `q` (a jump's query, a chip removed) */
  sync: (q: TrajectoryQuery) => void;
  /**
   * Shows the fields that filter the rows in view: on eval episodes (`episodes`) those of
   * training rollouts only (iterations, group, labeled, sign flip, fallback) are hidden,
   * unless `q` sets them (then they stay, to be cleared: no hidden filter).
   */
  fit: (episodes: boolean, q: TrajectoryQuery) => void;
}

/** A control with its label above it: the label stays once the field is filled. */
const field = (text: string, control: HTMLElement): HTMLLabelElement => h('label', { class: 'field' }, text, control);

const NUMBERS = ['iterationMin', 'iterationMax', 'group'] as const;

/** The controls over `query()` (the page's current query); `changed` after each edit. */
export function filterControls(query: () => TrajectoryQuery, changed: () => void): FilterControls {
  const num = (label: string, key: (typeof NUMBERS)[number]): HTMLInputElement => {
    const el = h('input', { type: 'number', min: 0, 'aria-label': label, placeholder: 'any', id: `f-${key}` });
    el.addEventListener('change', () => {
      const n = el.value === '' ? undefined : Math.max(0, Math.floor(Number(el.value)));
      if (n === undefined) delete query().filter[key];
      else query().filter[key] = n;
      changed();
    });
    return el;
  };
  const nums = {
    iterationMin: num('iteration from', 'iterationMin'),
    iterationMax: num('iteration to', 'iterationMax'),
    group: num('group', 'group'),
  };
  const rewardSel = h(
    'select',
    { 'aria-label': 'Reward', id: 'f-reward' },
    h('option', { value: '' }, 'any reward'),
    h('option', { value: 'success' }, 'succeeded'),
    h('option', { value: 'failure' }, 'failed'),
    h('option', { value: 'format' }, 'format failure'),
  );
  rewardSel.addEventListener('change', () => {
    const v = rewardSel.value;
    if (v === 'success' || v === 'failure' || v === 'format') query().filter.reward = v;
    else delete query().filter.reward;
    changed();
  });
  const check = (set: (v: boolean) => void, id: string): HTMLInputElement => {
    const el = h('input', { type: 'checkbox', id });
    el.addEventListener('change', () => {
      set(el.checked);
      changed();
    });
    return el;
  };
  const labeled = check((v) => {
    if (v) query().filter.labeledOnly = true;
    else delete query().filter.labeledOnly;
  }, 'f-labeled');
  const flagBox = (bit: number, id: string): HTMLInputElement =>
    check((v) => {
      const f = (query().filter.flags ?? 0) & ~bit;
      query().filter.flags = v ? f | bit : f;
      if (!query().filter.flags) delete query().filter.flags;
    }, id);
  const flip = flagBox(Flag.SignFlip, 'f-flip');
  const fallback = flagBox(Flag.Fallback, 'f-fallback');
  const text = h('vscode-textfield' as 'input', {
    placeholder: 'text in actions or instruction',
    'aria-label': 'Search actions and instruction',
    id: 'f-text',
  });
  let textTimer: number | undefined;
  text.addEventListener('input', () => {
    window.clearTimeout(textTimer);
    textTimer = window.setTimeout(() => {
      const v = text.value.trim();
      if (v) query().filter.text = v;
      else delete query().filter.text;
      changed();
    }, 350);
  });
  const sync = (q: TrajectoryQuery): void => {
    for (const k of NUMBERS) nums[k].value = q.filter[k] === undefined ? '' : String(q.filter[k]);
    rewardSel.value = q.filter.reward ?? '';
    labeled.checked = q.filter.labeledOnly === true;
    flip.checked = ((q.filter.flags ?? 0) & Flag.SignFlip) !== 0;
    fallback.checked = ((q.filter.flags ?? 0) & Flag.Fallback) !== 0;
    text.value = q.filter.text ?? '';
  };
  sync(query());
  const flagSet = (q: TrajectoryQuery, bit: number): boolean => ((q.filter.flags ?? 0) & bit) !== 0;
  const training: [HTMLElement, (q: TrajectoryQuery) => boolean][] = [
    [field('iteration from', nums.iterationMin), (q) => q.filter.iterationMin !== undefined],
    [field('iteration to', nums.iterationMax), (q) => q.filter.iterationMax !== undefined],
    [field('group', nums.group), (q) => q.filter.group !== undefined],
    [h('label', {}, labeled, 'labeled'), (q) => q.filter.labeledOnly === true],
    [h('label', {}, flip, 'sign flip'), (q) => flagSet(q, Flag.SignFlip)],
    [h('label', {}, fallback, 'fallback'), (q) => flagSet(q, Flag.Fallback)],
  ];
  const [from, to, group, ...checks] = training.map(([el]) => el);
  const fields = [from!, to!, group!, field('reward', rewardSel), ...checks, field('search', text)];
  const fit = (episodes: boolean, q: TrajectoryQuery): void => {
    for (const [el, set] of training) el.style.display = episodes && !set(q) ? 'none' : '';
  };
  return { fields, sync, fit };
}
