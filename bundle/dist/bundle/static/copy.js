// @ts-check
import { h } from './dom.js';

/**
 * Puts text on the clipboard: the Clipboard API where the page may use it (a secure context, which
 * http://127.0.0.1 and localhost are), else a selected off-screen textarea and `execCommand('copy')` (a viewer
 * opened by another address over plain http). Resolves to the way that worked, or rejects.
 * @param {string} text
 * @returns {Promise<'clipboard' | 'fallback'>}
 */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return 'clipboard';
    } catch {
      // Denied (no focus, a permission policy): try the fallback.
    }
  }
  const area = /** @type {HTMLTextAreaElement} */ (h('textarea', { class: 'copy-area', readonly: true }));
  area.value = text;
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('the browser refused to copy');
    return 'fallback';
  } finally {
    area.remove();
  }
}

/**
 * A button that copies `text`; it says "Copied" (or "Select and copy" when the browser refused) for a moment.
 * `data-copied` holds the way it copied, for tests and for a screen reader's live region.
 * @param {string} text @param {string} [label] what is copied, for the accessible name
 */
export function copyButton(text, label = 'command') {
  const button = h('button', {
    type: 'button',
    class: 'copy',
    title: `Copy the ${label}`,
    'aria-label': `Copy the ${label}`,
    dataset: { text },
  });
  const say = (/** @type {string} */ s) => {
    button.textContent = s;
  };
  say('Copy');
  button.addEventListener('click', (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    copyText(text).then(
      (how) => {
        button.dataset.copied = how;
        say('Copied');
        setTimeout(() => say('Copy'), 1500);
      },
      () => {
        button.dataset.copied = 'failed';
        say('Select and copy');
      },
    );
  });
  return button;
}

/**
 * A command the reader is asked to run: the whole text, wrapped (never clipped), with a copy button.
 * @param {string} command @param {string} [cls]
 */
export function commandLine(command, cls = '') {
  return h(
    'span',
    { class: `cmd-line ${cls}`.trim() },
    h('code', { class: 'cmd-text' }, command),
    copyButton(command),
  );
}

/**
 * Text in which commands appear as core's reasons write them, `backticked` or in parentheses starting with ckpt
 * (`(ckpt team retry --run r --task t --reason "...")`): each becomes a command line with a copy button.
 * @param {string} text
 */
export function withCommands(text) {
  /** @type {any[]} */
  const out = [];
  let at = 0;
  for (const m of text.matchAll(/`([^`]+)`|\((ckpt [^()]+)\)/g)) {
    const i = m.index ?? 0;
    out.push(text.slice(at, i));
    if (m[1] !== undefined) out.push(commandLine(m[1], 'inline'));
    else out.push('(', commandLine(m[2] ?? '', 'inline'), ')');
    at = i + m[0].length;
  }
  out.push(text.slice(at));
  return out;
}
