/**
 * The data-problems banner at the top of every panel: "This run's logs have 3 data
 * problems: ... Show in Problems panel". Text only (never markup); the link asks the
 * host to open the Problems panel.
 */
import { isDataProblemsMessage } from '../src/shared/protocol';
import type { ShowProblemsMessage } from '../src/shared/protocol';

const BANNER_ID = 'rlrb-data-problems';
/** the banner's height with its margin, for a panel that fills the window (media/trajectories.css) */
const HEIGHT_VAR = '--rlrb-banner-h';
let sizing: ResizeObserver | undefined;

/** Shows, updates or removes the banner when `m` is its message; returns whether it was. */
export function handleBanner(m: unknown, post: (m: ShowProblemsMessage) => void): boolean {
  if (!isDataProblemsMessage(m)) return false;
  const app = document.getElementById('app');
  document.getElementById(BANNER_ID)?.remove();
  sizing?.disconnect();
  document.documentElement.style.removeProperty(HEIGHT_VAR);
  if (m.total === 0) return true;
  const banner = document.createElement('div');
  banner.id = BANNER_ID;
  banner.setAttribute('role', 'status');
  Object.assign(banner.style, {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'baseline',
    gap: '0 8px',
    margin: '0 0 8px',
    padding: '5px 10px',
    color: 'var(--vscode-inputValidation-warningForeground, var(--vscode-foreground))',
    background: 'var(--vscode-inputValidation-warningBackground, transparent)',
    border: '1px solid var(--vscode-inputValidation-warningBorder, var(--vscode-editorWarning-foreground))',
    borderRadius: '2px',
    overflowWrap: 'anywhere',
  });
  const text = document.createElement('span');
  text.textContent = `This run's logs have ${m.total} data problem${m.total === 1 ? '' : 's'}${m.breakdown ? `: ${m.breakdown}` : ''}.`;
  const link = document.createElement('a');
  link.href = '#';
  link.textContent = 'Show in Problems panel';
  link.setAttribute('role', 'button');
  link.style.color = 'var(--vscode-textLink-foreground)';
  link.addEventListener('click', (e) => {
    e.preventDefault();
    post({ type: 'showProblems' });
  });
  banner.append(text, link);
  if (app) app.before(banner);
  else document.body.prepend(banner);
  // a panel that fills the window (the browser's split) gives the banner its room, measured
  // whenever the banner's size changes: a banner that came while the panel was hidden has none yet
  const fit = (): void => document.documentElement.style.setProperty(HEIGHT_VAR, `${banner.offsetHeight + 8}px`);
  sizing = new ResizeObserver(fit);
  sizing.observe(banner);
  fit();
  return true;
}
