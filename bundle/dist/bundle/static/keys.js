// @ts-check
import { $ } from './dom.js';

/**
 * @typedef {{ move?: (delta: number) => void, open?: () => void, clear?: () => void }} KeyTarget
 */

/**
 * Keyboard navigation: j/k move, Enter opens, / searches, u goes up, p pauses, ? shows help, Esc closes.
 * @param {KeyTarget} target @param {() => void} togglePause
 */
export function bindKeys(target, togglePause) {
  const help = /** @type {HTMLDialogElement} */ ($('#help'));
  const showHelp = () => (help.open ? help.close() : help.showModal());
  $('#help-btn')?.addEventListener('click', showHelp);
  $('#help-close')?.addEventListener('click', () => help.close());
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = /** @type {HTMLElement} */ (ev.target);
    const typing = t.matches('input, textarea, select, [contenteditable]');
    if (typing) {
      if (ev.key === 'Escape') {
        /** @type {HTMLInputElement} */ (t).blur();
        target.clear?.();
      } else if (ev.key === 'Enter' && t.id === 'search') target.open?.();
      return;
    }
    if (help.open && ev.key !== '?') return;
    switch (ev.key) {
      case 'j':
      case 'ArrowDown':
        if (ev.key === 'ArrowDown' && !t.closest('.vlist')) return;
        target.move?.(1);
        break;
      case 'k':
      case 'ArrowUp':
        if (ev.key === 'ArrowUp' && !t.closest('.vlist')) return;
        target.move?.(-1);
        break;
      case 'Enter':
        if (t.matches('a, button, summary')) return;
        target.open?.();
        break;
      case '/': {
        const s = /** @type {HTMLInputElement | null} */ ($('#search'));
        if (!s) return;
        s.focus();
        s.select();
        break;
      }
      case '?':
        showHelp();
        break;
      case 'p':
        togglePause();
        break;
      case 'u':
        if (document.body.dataset.page !== 'runs') location.href = '/';
        break;
      case 'Escape':
        target.clear?.();
        return;
      default:
        return;
    }
    ev.preventDefault();
  });
}
