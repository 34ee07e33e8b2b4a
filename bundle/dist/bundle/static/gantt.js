// @ts-check
import { getJson } from './api.js';
import { h, replace, uriPart } from './dom.js';
import { when } from './fmt.js';
import { barTone, drawnEnd, timelineFromText } from './timeline-table.js';

const TONES = ['ok', 'active', 'warning', 'error', 'neutral'];
/** A lane is never thinner than this: below it rows are aggregated into lanes. */
const MIN_LANE = 4;
const MAX_LANE = 22;
const PLOT_H = 360;
const AXIS_H = 22;
/** The label column: at most this wide, and never more than a third of the canvas. */
const MAX_GUTTER = 150;
/** Width of a time bin when aggregating, in CSS pixels. */
const BIN = 2;

/** Nice tick steps for the time axis (ms). */
const STEPS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400].map(
  (x) => x * 1000,
);

/**
 * The run's timeline: one lane per phase and unit, a bar per attempt, on a canvas. Zoom narrows the time and the
 * rows in view together; when more rows are in view than lanes fit, consecutive rows share a lane that shows, per
 * time bin, how many of them were in each tone (the dominant tone, its share as opacity). Only rows in view are
 * drawn, so 10,000 units stay cheap.
 * @param {string} base @param {string} runRef
 */
export function ganttSection(base, runRef) {
  const canvas = /** @type {HTMLCanvasElement} */ (
    h('canvas', { class: 'gantt-canvas', role: 'img', 'aria-label': 'Timeline' })
  );
  const info = h('span', { class: 'gantt-info faint', 'aria-live': 'polite' });
  const tip = h('div', { class: 'gantt-tip', hidden: true });
  const btn = (/** @type {string} */ label, /** @type {string} */ t, /** @type {() => void} */ f) =>
    h('button', { type: 'button', class: 'btn ghost', title: t, 'aria-label': t, onclick: f }, label);
  const el = h(
    'section',
    {
      class: 'panel section-anchor',
      id: 'gantt',
      'aria-labelledby': 'gantt-title',
      hidden: true,
      dataset: { run: runRef },
    },
    h('header', null, h('h2', { id: 'gantt-title' }, 'Timeline')),
    h(
      'div',
      { class: 'gantt-tools' },
      btn('+', 'Zoom in', () => zoom(0.5)),
      btn('−', 'Zoom out', () => zoom(2)),
      btn('Fit', 'Show the whole run', () => fit()),
      info,
    ),
    h('div', { class: 'gantt-wrap' }, canvas, tip),
  );
  // Far from the view (more than a quarter of the window's height away), the canvas is `away`: while a list scrolls
  // the page does not draw it (shape.css). A page scroll brings it back before it is in view.
  new IntersectionObserver(
    (entries) => {
      const e = entries.at(-1);
      if (e) canvas.classList.toggle('away', !e.isIntersecting);
    },
    { rootMargin: '25%' },
  ).observe(canvas);
  /** @type {ReturnType<typeof timelineFromText> | undefined} the timeline, as columns */
  let doc;
  // The view: time [t0, t1] and rows [r0, r1).
  let v = { t0: 0, t1: 1, r0: 0, r1: 1 };
  /** @type {{ lanes: number, per: number, laneH: number } | undefined} */
  let shape;
  let gutter = MAX_GUTTER;

  const fit = () => {
    if (!doc) return;
    v = { t0: doc.lo, t1: doc.hi, r0: 0, r1: doc.n };
    draw();
  };
  /** Zooms both axes around a point (fractions of the plot). @param {number} f @param {number} [fx] @param {number} [fy] */
  const zoom = (f, fx = 0.5, fy = 0.5) => {
    if (!doc) return;
    const n = doc.n;
    const span = Math.min(doc.hi - doc.lo, Math.max(1000, (v.t1 - v.t0) * f));
    const tc = v.t0 + fx * (v.t1 - v.t0);
    const t0 = Math.max(doc.lo, Math.min(doc.hi - span, tc - fx * span));
    const rows = Math.min(n, Math.max(1, Math.round((v.r1 - v.r0) * f)));
    const rc = v.r0 + fy * (v.r1 - v.r0);
    const r0 = Math.max(0, Math.min(n - rows, Math.round(rc - fy * rows)));
    v = { t0, t1: t0 + span, r0, r1: r0 + rows };
    draw();
  };

  const colors = () => {
    const cs = getComputedStyle(el);
    return Object.fromEntries(TONES.map((t) => [t, cs.getPropertyValue(`--${t}`).trim() || '#888']));
  };

  const draw = () => {
    if (!doc || el.hidden) return;
    const width = Math.max(300, canvas.parentElement?.clientWidth ?? 800);
    gutter = Math.round(Math.min(MAX_GUTTER, width / 3));
    const rowsInView = v.r1 - v.r0;
    const lanesFit = Math.floor(PLOT_H / MIN_LANE);
    const per = Math.max(1, Math.ceil(rowsInView / lanesFit));
    const lanes = Math.ceil(rowsInView / per);
    const laneH = Math.min(MAX_LANE, PLOT_H / lanes);
    const height = Math.ceil(lanes * laneH) + AXIS_H;
    shape = { lanes, per, laneH };
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const col = colors();
    const plotW = width - gutter;
    const x = (/** @type {number} */ t) => gutter + ((t - v.t0) / (v.t1 - v.t0)) * plotW;
    const muted = getComputedStyle(el).getPropertyValue('--muted').trim() || '#666';
    const line = getComputedStyle(el).getPropertyValue('--line').trim() || '#ddd';
    ctx.font = '11px ui-monospace, SFMono-Regular, Menlo, monospace';
    ctx.textBaseline = 'middle';
    // Time axis.
    const step = STEPS.find((s) => plotW / ((v.t1 - v.t0) / s) >= 90) ?? STEPS.at(-1) ?? 86400000;
    ctx.fillStyle = muted;
    ctx.strokeStyle = line;
    for (let t = Math.ceil(v.t0 / step) * step; t <= v.t1; t += step) {
      const px = Math.round(x(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(px, AXIS_H - 4);
      ctx.lineTo(px, height);
      ctx.stroke();
      const label = when(new Date(t).toISOString());
      ctx.fillText(
        step >= 86400000 ? label.slice(5, 10) : label.slice(11, step < 60000 ? 19 : 16),
        px + 3,
        AXIS_H / 2,
      );
    }
    const { first, start } = doc;
    if (per === 1) {
      for (let i = 0; i < lanes; i++) {
        const r = v.r0 + i;
        const y = AXIS_H + i * laneH;
        if (laneH >= 10) {
          ctx.fillStyle = muted;
          ctx.fillText(clip(doc.ids[r], ctx, gutter - 8), 4, y + laneH / 2);
        }
        for (let b = first[r] ?? 0; b < (first[r + 1] ?? 0); b++) {
          const s = /** @type {number} */ (start[b]);
          const tone = barTone(doc, b);
          const end = drawnEnd(doc, b);
          const x0 = Math.max(gutter, x(s));
          const x1 = Math.min(width, x(end));
          if (x1 < gutter || x0 > width) continue;
          ctx.fillStyle = col[tone] ?? col.neutral;
          ctx.fillRect(x0, y + 2, Math.max(2, x1 - x0), Math.max(1, laneH - 4));
        }
      }
    } else {
      // Aggregated: per lane, per time bin, per tone, how many rows had a bar there (difference arrays).
      const bins = Math.ceil(plotW / BIN);
      const counts = new Int32Array(lanes * TONES.length * (bins + 1));
      const at = (/** @type {number} */ l, /** @type {number} */ k, /** @type {number} */ b) =>
        (l * TONES.length + k) * (bins + 1) + b;
      for (let i = v.r0; i < v.r1; i++) {
        const l = Math.floor((i - v.r0) / per);
        for (let b = first[i] ?? 0; b < (first[i + 1] ?? 0); b++) {
          const s = /** @type {number} */ (start[b]);
          const tone = barTone(doc, b);
          const end = drawnEnd(doc, b);
          if (end < v.t0 || s > v.t1) continue;
          const b0 = Math.max(0, Math.floor((x(s) - gutter) / BIN));
          const b1 = Math.min(bins - 1, Math.floor((x(end) - gutter) / BIN));
          const k = Math.max(0, TONES.indexOf(tone));
          counts[at(l, k, b0)] += 1;
          counts[at(l, k, b1 + 1)] -= 1;
        }
      }
      const run = new Int32Array(TONES.length);
      for (let l = 0; l < lanes; l++) {
        run.fill(0);
        const y = AXIS_H + l * laneH;
        for (let b = 0; b < bins; b++) {
          let best = -1;
          let bestN = 0;
          let total = 0;
          for (let k = 0; k < TONES.length; k++) {
            run[k] += counts[at(l, k, b)];
            total += run[k];
            if (run[k] > bestN) {
              bestN = run[k];
              best = k;
            }
          }
          if (best < 0) continue;
          ctx.globalAlpha = Math.min(1, 0.25 + (0.75 * total) / per);
          ctx.fillStyle = col[TONES[best]];
          ctx.fillRect(gutter + b * BIN, y, BIN, Math.max(1, laneH - (laneH > 3 ? 1 : 0)));
        }
        ctx.globalAlpha = 1;
        if (laneH >= 10 && l % Math.ceil(14 / laneH) === 0) {
          ctx.fillStyle = muted;
          ctx.fillText(`#${v.r0 + l * per + 1}–${Math.min(v.r1, v.r0 + (l + 1) * per)}`, 4, y + laneH / 2);
        }
      }
    }
    canvas.dataset.rows = String(rowsInView);
    canvas.dataset.lanes = String(lanes);
    canvas.dataset.perLane = String(per);
    canvas.dataset.t0 = String(v.t0);
    canvas.dataset.t1 = String(v.t1);
    canvas.setAttribute(
      'aria-label',
      `Timeline of ${doc.n} rows from ${when(new Date(v.t0).toISOString())} to ${when(new Date(v.t1).toISOString())}`,
    );
    info.textContent = `${doc.n} rows · showing ${v.r0 + 1}–${v.r1}${per > 1 ? ` · ${per} per lane (aggregated)` : ''} · ${when(new Date(v.t0).toISOString())} → ${when(new Date(v.t1).toISOString())}`;
    el.dataset.perLane = String(per);
  };

  /** The row (or lane) and time under the pointer. @param {MouseEvent} e */
  const hit = (e) => {
    if (!doc || !shape) return undefined;
    const r = canvas.getBoundingClientRect();
    const px = e.clientX - r.left;
    const py = e.clientY - r.top - AXIS_H;
    if (py < 0 || px < gutter) return undefined;
    const lane = Math.floor(py / shape.laneH);
    if (lane >= shape.lanes) return undefined;
    const t = v.t0 + ((px - gutter) / (r.width - gutter)) * (v.t1 - v.t0);
    return {
      lane,
      first: v.r0 + lane * shape.per,
      last: Math.min(v.r1, v.r0 + (lane + 1) * shape.per) - 1,
      t,
      px,
      py,
    };
  };
  canvas.addEventListener('mousemove', (e) => {
    const p = hit(e);
    if (!p || !doc) {
      tip.hidden = true;
      return;
    }
    const d = doc;
    tip.hidden = false;
    tip.style.left = `${Math.min(p.px + 12, canvas.clientWidth - 260)}px`;
    tip.style.top = `${p.py + AXIS_H + 12}px`;
    if (p.first === p.last) {
      const r = p.first;
      let bar = -1;
      for (let b = d.first[r] ?? 0; b < (d.first[r + 1] ?? 0) && bar < 0; b++) {
        const e = /** @type {number} */ (d.end[b]);
        if (/** @type {number} */ (d.start[b]) <= p.t && (Number.isNaN(e) ? d.hi : e) >= p.t) bar = b;
      }
      const e = d.end[bar];
      replace(
        tip,
        h('b', null, d.ids[r]),
        ` ${d.kinds[r]} · ${d.statuses[r]}`,
        bar >= 0
          ? h(
              'div',
              null,
              `${when(new Date(/** @type {number} */ (d.start[bar])).toISOString())} → ${e ? when(new Date(e).toISOString()) : 'open'}`,
            )
          : null,
      );
    } else
      replace(
        tip,
        h('b', null, `rows ${p.first + 1}–${p.last + 1}`),
        ` (${p.last - p.first + 1} rows in this lane) · zoom in to see each`,
      );
  });
  canvas.addEventListener('mouseleave', () => {
    tip.hidden = true;
  });
  canvas.addEventListener('click', (e) => {
    const p = hit(e);
    if (!p || dragged || !doc) return;
    if (p.first === p.last && doc.kinds[p.first] === 'unit')
      location.hash = `#unit-${uriPart(doc.ids[p.first])}`;
    else
      zoom(
        0.5,
        (p.px - gutter) / (canvas.clientWidth - gutter),
        p.py / (shape?.lanes ?? 1) / (shape?.laneH ?? 1),
      );
  });
  canvas.addEventListener(
    'wheel',
    (e) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const p = hit(e);
      zoom(
        e.deltaY > 0 ? 2 : 0.5,
        p ? (p.px - gutter) / (canvas.clientWidth - gutter) : 0.5,
        p ? p.lane / (shape?.lanes ?? 1) : 0,
      );
    },
    { passive: false },
  );
  /** @type {{x:number,y:number,v:typeof v}|undefined} */
  let drag;
  let dragged = false;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, v: { ...v } };
    dragged = false;
  });
  window.addEventListener('pointerup', () => {
    drag = undefined;
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag || !doc || (Math.abs(e.clientX - drag.x) < 4 && Math.abs(e.clientY - drag.y) < 4)) return;
    dragged = true;
    const plotW = canvas.clientWidth - gutter;
    const dt = ((e.clientX - drag.x) / plotW) * (drag.v.t1 - drag.v.t0);
    const span = drag.v.t1 - drag.v.t0;
    const t0 = Math.max(doc.lo, Math.min(doc.hi - span, drag.v.t0 - dt));
    const rows = drag.v.r1 - drag.v.r0;
    const dr = Math.round(((e.clientY - drag.y) / PLOT_H) * rows);
    const r0 = Math.max(0, Math.min(doc.n - rows, drag.v.r0 - dr));
    v = { t0, t1: t0 + span, r0, r1: r0 + rows };
    draw();
  });
  window.addEventListener('resize', () => draw());

  const refresh = async () => {
    // Held as columns (timeline-table.js), read from the text a row at a time, also for the next refresh's 304.
    const { data, changed } = await getJson(`${base}/timeline`, { fromText: timelineFromText });
    if (!changed && doc) return;
    const first = !doc;
    const same = doc && doc.n === data.n && doc.lo === data.lo;
    doc = data;
    el.hidden = data.lo === undefined || data.first[data.n] === 0;
    if (el.hidden) return;
    if (first || !same) fit();
    else draw();
  };
  return { el, refresh };
}

/** A label cut to a width. @param {string} t @param {CanvasRenderingContext2D} ctx @param {number} w */
function clip(t, ctx, w) {
  if (ctx.measureText(t).width <= w) return t;
  let n = t.length;
  while (n > 1 && ctx.measureText(`${t.slice(0, n)}…`).width > w) n--;
  return `${t.slice(0, n)}…`;
}
