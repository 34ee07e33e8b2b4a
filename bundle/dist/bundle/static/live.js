// @ts-check
import { $ } from './dom.js';

const KEY = 'ckpt.paused';

/**
 * Live refresh: server-sent `change` events call `refresh` (one at a time; a change during a refresh queues one
 * more). Paused, changes are only counted; resuming applies them. A reconnect re-checks, since events may have
 * been missed while the stream was down.
 * @param {() => Promise<void>} refresh
 */
export function startLive(refresh) {
  const status = /** @type {HTMLElement} */ ($('#live'));
  const button = /** @type {HTMLButtonElement} */ ($('#pause'));
  let paused = sessionStorage.getItem(KEY) === '1';
  let waiting = 0;
  let running = false;
  let again = false;
  let seen = -1;
  let connected = false;

  const show = () => {
    button.setAttribute('aria-pressed', String(paused));
    button.textContent = paused ? 'Resume' : 'Pause';
    status.className = `live ${!connected ? 'off' : paused ? 'paused' : 'on'}`;
    status.textContent = !connected
      ? 'reconnecting…'
      : paused
        ? waiting > 0
          ? `paused · ${waiting} change${waiting === 1 ? '' : 's'} waiting`
          : 'paused'
        : 'live';
  };
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await refresh();
      status.classList.remove('flash');
      void status.offsetWidth;
      status.classList.add('flash');
    } catch (e) {
      console.error(e);
    } finally {
      running = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };
  const onChange = () => {
    if (paused) {
      waiting++;
      show();
    } else void run();
  };

  const es = new EventSource('/api/events');
  es.addEventListener('hello', (ev) => {
    const v = Number(/** @type {MessageEvent} */ (ev).data);
    const reconnect = seen !== -1 && v !== seen;
    seen = v;
    connected = true;
    show();
    if (reconnect) onChange();
  });
  es.addEventListener('change', (ev) => {
    seen = Number(/** @type {MessageEvent} */ (ev).data);
    onChange();
  });
  es.addEventListener('error', () => {
    connected = false;
    show();
  });

  const toggle = () => {
    paused = !paused;
    sessionStorage.setItem(KEY, paused ? '1' : '0');
    if (!paused && waiting > 0) {
      waiting = 0;
      void run();
    }
    show();
  };
  button.addEventListener('click', toggle);
  show();
  return { toggle };
}
