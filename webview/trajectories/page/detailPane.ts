/**
 * The browser's detail pane: the model's trajectory (or eval episode), its skeleton while it
 * comes, the focused turn, Next mark, and the group view's toggle.
 */
import { h } from '../../common';
import { scrollWithin } from '../../scroll';
import type { Block } from '../../scrollMath';
import { visibleText } from '../../../src/shared/visibleText';
import type { TrajectoryKey } from '../../../src/shared/protocol';
import type { TrajectoryQuery } from '../../../src/shared/shapes';
import type { ShareAction } from '../../../src/shared/protocol/trajectories';
import { renderDetail } from '../detail';
import { logNodes } from '../text';
import { renderEpisode } from '../episodes';
import { nextMarked, wantedMarks } from '../marks';
import { nextEpisodeMark } from '../turnWalk';
import type { BrowserModel } from './store';
import { detailOutside, evalSource } from './store';
import { SEARCHED_FIELDS, markMatches } from './textMarks';
import { skeleton } from './list';

/** What the detail asks of the page. */
export interface DetailActions {
  openSibling: (iteration: number, group: number, rollout: number) => void;
  compare: (a: TrajectoryKey, b: TrajectoryKey) => void;
  setQuery: (q: TrajectoryQuery) => void;
  share: (action: ShareAction, turn: number | null) => void;
}

export interface DetailPane {
  el: HTMLElement;
  /** the hint shown before anything is selected */
  hint: () => void;
  /** grey lines where the detail will be, while it is on its way */
  loading: () => void;
  /** draws the model's trajectory; `fresh`: another one than before (then it starts at its top or its first wanted mark) */
  show: (fresh: boolean) => void;
  /** draws the model's eval episode, at its top */
  showEpisode: () => void;
  /** says, under the title, when the table's list no longer holds what the detail shows (or takes that back) */
  sayWhetherListed: () => void;
  /** the note and the search's marks for the query now */
  followQuery: () => void;
  error: (message: string) => void;
  toggleGroup: () => void;
  nextMark: () => void;
  focusOn: (i: number, block?: Block) => void;
  /** the focused turn, when one is (a key moved to it) */
  focused: () => number | null;
  /** a link's turn, once its trajectory's detail is here */
  applyPendingFocus: () => void;
  /** how many turns the detail shows: a training trajectory's, or an eval episode's */
  shownTurns: () => number;
}

export function createDetailPane(m: BrowserModel, a: DetailActions): DetailPane {
  const el = h('div', { class: 'detail', id: 'detail', tabindex: 0, 'aria-label': 'Selected trajectory' });
  const hint = (): void => el.replaceChildren(h('p', { class: 'muted' }, 'Select a trajectory (arrows, Enter). g toggles the group view.'));
  const loading = (): void =>
    el.replaceChildren(
      h(
        'div',
        { class: 'skeleton', id: 'detail-skeleton', 'aria-busy': 'true', 'aria-label': 'loading the trajectory' },
        ...skeleton(3, 'skeleton-line'),
        h('div', { class: 'skeleton-line block' }),
        ...skeleton(4, 'skeleton-line'),
      ),
    );

  function focusOn(i: number, block: Block = 'nearest'): void {
    m.focusTurn = i;
    el.querySelectorAll('.turn.focus, .turn.target').forEach((x) => x.classList.remove('focus', 'target'));
    const t = el.querySelector(`.turn[data-turn="${i}"]`);
    t?.classList.add('focus', 'target');
    if (t) scrollWithin(t, block, el);
  }

  /** Next mark: the next turn after the focused one with a mark (a repeat, a cycle, a collapsed turn, an anomaly), round to the first. */
  function nextMark(): void {
    // nothing focused yet (a fresh trajectory): the first marked turn, turn 0 included
    const from = el.querySelector('.turn.target') ? m.focusTurn : -1;
    const i = m.detail ? nextMarked(m.detail.turns, from) : m.episode ? nextEpisodeMark(m.episode.turnList, from) : undefined;
    if (i !== undefined) focusOn(i, 'start');
  }

  function toggleGroup(): void {
    m.groupView = !m.groupView;
    if (m.detail) show(false);
  }

  /** The note for what the detail shows and the list does not hold, with the way back into the list when there is one. */
  function outsideNote(): HTMLElement | null {
    const why = detailOutside(m);
    if (why === null) return null;
    const episode = m.episode !== undefined;
    const what = episode ? 'This evaluation episode' : 'This trajectory';
    const note = h('div', { class: 'detail-note', id: 'detail-outside', role: 'status', 'data-why': why });
    if (why === 'otherSource' && episode) {
      note.append(`${what} is not in the table, which lists training trajectories.`);
      return note;
    }
    const listed = evalSource(m) ? `the evaluation episodes of iteration ${m.query.filter.evalIteration}` : '';
    note.append(
      why === 'otherSource'
        ? `${what} is not in the table, which lists ${listed}: `
        : `${what} is not in the table under the current filters: `,
    );
    // an episode's way back keeps its checkpoint; a trajectory's drops every filter
    const keep = episode ? { evalIteration: m.query.filter.evalIteration } : {};
    const clear = h('button', { class: 'link', id: 'detail-clear' }, 'clear the filters');
    clear.addEventListener('click', () => a.setQuery({ filter: keep, sort: m.query.sort }));
    note.append(clear);
    return note;
  }

  /**
   * Marks the query's text where the detail shows it, flags the turns that hold it (and their strip
   * buttons), and says where it is under the mark bar; returns those turns.
   */
  function markSearch(): number[] {
    const needle = m.query.filter.text?.trim() ?? '';
    markedText = needle;
    if (!needle) return [];
    const turns = new Set<number>();
    const places = new Set<string>();
    for (const f of el.querySelectorAll(SEARCHED_FIELDS)) {
      if (!markMatches(f, needle)) continue;
      const turn = f.closest<HTMLElement>('.turn[data-turn]');
      if (turn) {
        turn.classList.add('hit');
        turns.add(Number(turn.dataset['turn']));
      } else places.add(f.getAttribute('data-field') ?? '');
    }
    for (const b of el.querySelectorAll<HTMLElement>('#turn-strip [data-turn]'))
      if (turns.has(Number(b.dataset['turn']))) b.classList.add('hit');
    const list = [...turns].sort((x, y) => x - y);
    const parts = [
      ...[...places].sort().map((p) => `the ${p}`),
      ...(list.length ? [`${list.length === 1 ? 'turn' : 'turns'} ${list.join(', ')}`] : []),
    ];
    const said = parts.length ? `found in ${parts.join(', ')}` : 'not in the fields shown here';
    const line = h('div', { class: 'muted search-hits', id: 'search-hits', role: 'note' }, 'search ');
    line.append(h('mark', { class: 'hit' }, ...logNodes(needle)), `: ${said}`);
    (el.querySelector('.mark-bar') ?? el.querySelector('#detail-title'))?.after(line);
    return list;
  }

  /** The text the detail's marks are of ('' for none). */
  let markedText = '';

  /** Takes the marks of a search away (the text nodes they split joined again). */
  function unmark(): void {
    for (const mk of el.querySelectorAll('mark.hit')) {
      const parent = mk.parentNode;
      mk.replaceWith(...mk.childNodes);
      parent?.normalize();
    }
    el.querySelectorAll('.hit').forEach((x) => x.classList.remove('hit'));
    el.querySelector('#search-hits')?.remove();
  }

  /** The marks and the note of the query now, after a new query's page (its text, its list, may have changed). */
  function followQuery(): void {
    sayWhetherListed();
    if (!m.detail && !m.episode) return;
    if ((m.query.filter.text?.trim() ?? '') === markedText) return;
    unmark();
    markSearch();
  }

  function sayWhetherListed(): void {
    el.querySelector('#detail-outside')?.remove();
    const note = outsideNote();
    if (note) el.querySelector('#detail-title')?.after(note);
  }

  function show(fresh: boolean): void {
    const d = m.detail;
    if (!d) return;
    el.replaceChildren(
      ...renderDetail(d, {
        showGroup: m.groupView,
        onToggleGroup: toggleGroup,
        onOpenSibling: (iteration, group, rollout) => {
          loading();
          a.openSibling(iteration, group, rollout);
        },
        onCompare: a.compare,
        onJumpTurn: (i) => focusOn(i),
        onNextMark: nextMark,
        onShare: a.share,
      }),
    );
    sayWhetherListed();
    const hits = markSearch();
    if (!fresh) return;
    // a new trajectory starts at its top, or at its first turn with the mark the table is filtered for, or with the searched text
    el.scrollTop = 0;
    m.focusTurn = 0;
    const want = wantedMarks(m.query.filter.flags, m.query.filter.tags);
    const first = want.length ? d.turns.find((t) => want.some((k) => t[k]))?.index : hits[0];
    if (first !== undefined) focusOn(first, 'start');
  }

  function showEpisode(): void {
    if (!m.episode) return;
    el.replaceChildren(...renderEpisode(m.episode, nextMark));
    sayWhetherListed();
    const hits = markSearch();
    el.scrollTop = 0;
    if (hits[0] !== undefined) focusOn(hits[0], 'start');
  }

  function applyPendingFocus(): void {
    const p = m.pendingFocus;
    if (!p || m.detail?.row !== p.row) return;
    focusOn(Math.min(p.turn, Math.max(0, m.detail.turns.length - 1)), 'start');
    m.pendingFocus = undefined;
  }

  return {
    el,
    hint,
    loading,
    show,
    showEpisode,
    sayWhetherListed,
    followQuery,
    error: (message) => el.replaceChildren(h('p', { class: 'error' }, visibleText(message))),
    toggleGroup,
    nextMark,
    focusOn,
    focused: () => (el.querySelector('.turn.focus') ? m.focusTurn : null),
    applyPendingFocus,
    shownTurns: () => m.detail?.turns.length ?? m.episode?.turnList.length ?? 0,
  };
}
