// @ts-check
import { $ } from './dom.js';

const KEY = 'ckpt.paused';
const LOCK = 'ckpt-live-stream';
const CHANNEL = 'ckpt-live';

/**
 * The server's event stream, shared by every tab of this browser on this origin: the tab that holds a Web Lock
 * opens the one EventSource and relays its events on a BroadcastChannel; the others listen there (browsers allow
 * six HTTP/1.1 connections per host, so a stream per tab would leave a seventh tab with nothing to fetch with).
 * When the holding tab closes, the lock passes to another tab, which opens the stream. Without Web Locks (an
 * insecure context) every tab opens its own.
 * @param {(type: string, data: any) => void} onEvent `hello`, `progress` or `change`, with parsed data
 * @param {(connected: boolean) => void} onState
 */
export function sharedStream(onEvent, onState) {
  const events = ['hello', 'progress', 'change'];
  /** @param {(type: string, data: any) => void} relay @param {(connected: boolean) => void} state */
  const open = (relay, state) => {
    const es = new EventSource('/api/events');
    for (const type of events)
      es.addEventListener(type, (ev) => {
        let data;
        try {
          data = JSON.parse(/** @type {MessageEvent} */ (ev).data);
        } catch {
          return;
        }
        relay(type, data);
      });
    es.addEventListener('open', () => state(true));
    es.addEventListener('error', () => state(false));
    return es;
  };
  const locks = /** @type {any} */ (navigator).locks;
  if (!locks || typeof BroadcastChannel === 'undefined') {
    open(onEvent, onState);
    return { leader: () => true };
  }
  const channel = new BroadcastChannel(CHANNEL);
  let leader = false;
  /** @type {any} the last `hello` the stream sent, for tabs that join later */
  let lastHello;
  let connected = false;
  channel.addEventListener('message', (ev) => {
    const m = ev.data;
    if (leader) {
      // A tab that just opened asks for the stream's state.
      if (m?.kind === 'ask') {
        channel.postMessage({ kind: 'state', connected });
        if (lastHello) channel.postMessage({ kind: 'event', type: 'hello', data: lastHello });
      }
      return;
    }
    if (m?.kind === 'event') onEvent(m.type, m.data);
    else if (m?.kind === 'state') onState(m.connected);
  });
  channel.postMessage({ kind: 'ask' });
  locks.request(LOCK, () => {
    leader = true;
    open(
      (type, data) => {
        if (type === 'hello') lastHello = data;
        onEvent(type, data);
        channel.postMessage({ kind: 'event', type, data });
      },
      (c) => {
        connected = c;
        onState(c);
        channel.postMessage({ kind: 'state', connected: c });
      },
    );
    // Held until the tab goes away.
    return new Promise(() => undefined);
  });
  return { leader: () => leader };
}

/**
 * Live refresh: `change` events call `refresh(change)` (one at a time; changes during a refresh are merged into one
 * more). A change whose deltas name runs tells the page which runs (and units) changed, so a run page ignores the
 * others. Paused, changes are only counted; resuming applies them. A reconnect re-checks, since events may have
 * been missed while the stream was down. While the server's first load runs, the page shows its progress.
 * @param {(change?: { version: number, deltas: any[], full?: boolean }) => Promise<void>} refresh
 * @param {{ wants?: (delta: any) => boolean, onAny?: () => void }} [opts] `wants`: which deltas matter to this
 *   page (default: all); `onAny`: runs on every change while live, whichever runs it names (the tab's count), and
 *   once on resume when changes came while paused (paused, nothing on the page changes: not the title either)
 */
export function startLive(refresh, opts = {}) {
  const status = /** @type {HTMLElement} */ ($('#live'));
  const button = /** @type {HTMLButtonElement} */ ($('#pause'));
  let paused = sessionStorage.getItem(KEY) === '1';
  let waiting = 0;
  let running = false;
  /** @type {any} a change that arrived during a refresh (`null`: none; `undefined`: refresh everything) */
  let again = null;
  let seen = -1;
  let connected = false;
  /** @type {any} the first load's progress while it runs */
  let loading;
  let loadingSince = 0;
  /** @type {any} changes seen while paused, merged */
  let held = null;
  /** Whether any change (of any run) came while paused. */
  let missed = false;

  const show = () => {
    button.setAttribute('aria-pressed', String(paused));
    button.textContent = paused ? 'Resume' : 'Pause';
    status.className = `live ${!connected ? 'off' : loading ? 'loading' : paused ? 'paused' : 'on'}`;
    status.textContent = !connected
      ? 'reconnecting…'
      : loading
        ? 'loading…'
        : paused
          ? waiting > 0
            ? `paused · ${waiting} change${waiting === 1 ? '' : 's'} waiting`
            : 'paused'
          : 'live';
  };
  const showProgress = () => {
    const box = document.querySelector('#main .loading');
    if (!box || !loading) return;
    const s = ((loading.elapsedMs + performance.now() - loadingSince) / 1000).toFixed(1);
    box.textContent = `Loading the project… ${loading.message} · ${s} s`;
  };
  setInterval(() => {
    if (loading) showProgress();
  }, 250);

  /** Two changes as one: their deltas together, or everything. @param {any} a @param {any} b */
  const merge = (a, b) =>
    a === null ? b : !a || !b || a.full || b.full ? undefined : { ...b, deltas: [...a.deltas, ...b.deltas] };

  /** @param {any} change */
  const run = async (change) => {
    if (running) {
      again = merge(again, change);
      return;
    }
    running = true;
    try {
      await refresh(change);
      status.classList.remove('flash');
      void status.offsetWidth;
      status.classList.add('flash');
    } catch (e) {
      console.error(e);
    } finally {
      running = false;
      if (again !== null) {
        const next = again;
        again = null;
        void run(next);
      }
    }
  };
  /** @param {any} change */
  const onChange = (change) => {
    if (paused) missed = true;
    else opts.onAny?.();
    if (change && !change.full && opts.wants && !change.deltas.some(opts.wants)) return;
    if (paused) {
      waiting++;
      held = merge(held, change);
      show();
    } else void run(change);
  };

  sharedStream(
    (type, data) => {
      if (type === 'hello') {
        const v = Number(data.version);
        const reconnect = seen !== -1 && v !== seen;
        seen = v;
        connected = true;
        if (data.progress?.state === 'loading') {
          loading = data.progress;
          loadingSince = performance.now();
          showProgress();
        }
        show();
        if (reconnect) onChange(undefined);
      } else if (type === 'progress') {
        loading = data.state === 'loading' ? data : undefined;
        loadingSince = performance.now();
        showProgress();
        show();
      } else if (type === 'change') {
        if (Number(data.version) <= seen) return;
        seen = Number(data.version);
        onChange(data);
      }
    },
    (c) => {
      connected = c;
      show();
    },
  );

  const toggle = () => {
    paused = !paused;
    sessionStorage.setItem(KEY, paused ? '1' : '0');
    if (!paused && missed) {
      missed = false;
      opts.onAny?.();
    }
    if (!paused && waiting > 0) {
      waiting = 0;
      const change = held;
      held = null;
      void run(change);
    }
    show();
  };
  button.addEventListener('click', toggle);
  show();
  return { toggle };
}
