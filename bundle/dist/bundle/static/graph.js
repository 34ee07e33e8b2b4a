// @ts-check
import { getJson } from './api.js';
// @ts-expect-error served from @dagrejs/dagre's own file (src/vendor.ts), not a file of this folder
import dagre from './dagre.js';
import { h, replace, uriPart } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Above this many nodes only the units still to do (and ghosts) are drawn: a layout of 10,000 nodes is unreadable. */
const MAX_NODES = 400;
const PLAN_LABEL = /** @type {Record<string, string>} */ ({
  skip: 'skip (done)',
  'run-next': 'run next',
  blocked: 'blocked',
  'needs-person': 'needs a person',
  none: 'not in the plan',
});

/** An SVG element. @param {string} tag @param {Record<string, any>} [attrs] @param {...any} children */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs))
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children.flat())
    if (c) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

const clip = (/** @type {string} */ t, /** @type {number} */ n) =>
  t.length > n ? `${t.slice(0, n - 1)}…` : t;

/** What a node's tooltip says: status, plan and why. @param {any} n */
function describe(n) {
  return [
    `${n.id} — ${n.kind === 'ghost' ? 'unknown dependency' : n.status}`,
    `resume plan: ${PLAN_LABEL[n.plan]}${n.reason ? ` (${n.reason})` : ''}`,
    n.blockedBy ? `blocked by ${n.blockedBy}` : '',
    n.inCycle ? 'in a dependency cycle' : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** Lays out and draws the graph as SVG. @param {any} g the graph document */
function draw(g) {
  let nodes = g.nodes;
  let note = '';
  if (nodes.length > MAX_NODES) {
    // The resume frontier: what runs next, what is blocked or needs a person, cycles and ghosts, and what they
    // depend on directly; else (a plan that names no unit) the first nodes.
    const hot = new Set(
      nodes
        .filter(
          (/** @type {any} */ n) =>
            (n.plan !== 'skip' && n.plan !== 'none') || n.inCycle || n.kind === 'ghost',
        )
        .map((/** @type {any} */ n) => n.id),
    );
    const seeds = new Set(hot);
    for (const e of g.edges) if (seeds.has(e.to) && hot.size < MAX_NODES) hot.add(e.from);
    const keep = hot.size > 0 ? nodes.filter((/** @type {any} */ n) => hot.has(n.id)) : nodes;
    nodes = keep.slice(0, MAX_NODES);
    note = `${g.nodes.length} nodes: showing ${nodes.length}${hot.size > 0 ? ' (what the resume plan runs next, blocks or asks a person about, and what they depend on)' : ''}`;
  }
  const ids = new Set(nodes.map((/** @type {any} */ n) => n.id));
  const edges = g.edges.filter((/** @type {any} */ e) => ids.has(e.from) && ids.has(e.to));
  const layout = new dagre.graphlib.Graph({ multigraph: true });
  layout.setGraph({
    rankdir: g.shape === 'dependencies' ? 'LR' : 'LR',
    nodesep: 14,
    ranksep: 46,
    marginx: 12,
    marginy: 12,
  });
  layout.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    const chars = Math.max(
      Math.min(26, n.id.length),
      n.blockedBy ? Math.min(28, 10 + n.blockedBy.length) : 0,
    );
    layout.setNode(n.id, { width: 24 + 7 * chars, height: n.blockedBy ? 40 : 30 });
  }
  edges.forEach((/** @type {any} */ e, /** @type {number} */ i) => layout.setEdge(e.from, e.to, {}, `e${i}`));
  dagre.layout(layout);
  const { width = 100, height = 60 } = layout.graph();
  const edgeEls = edges.map((/** @type {any} */ e, /** @type {number} */ i) => {
    const pts = layout.edge({ v: e.from, w: e.to, name: `e${i}` })?.points ?? [];
    const d = pts
      .map(
        (/** @type {any} */ p, /** @type {number} */ k) =>
          `${k ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`,
      )
      .join(' ');
    return s(
      'path',
      {
        d,
        class: `gedge${e.cycle ? ' cycle' : ''}${e.unknown ? ' unknown' : ''}`,
        'marker-end': `url(#${e.cycle ? 'arrow-cycle' : 'arrow'})`,
        'data-from': e.from,
        'data-to': e.to,
      },
      s(
        'title',
        {},
        `${e.to} depends on ${e.from}${e.cycle ? ' (cycle)' : ''}${e.unknown ? ' (unknown unit)' : ''}`,
      ),
    );
  });
  const nodeEls = nodes.map((/** @type {any} */ n) => {
    const p = layout.node(n.id);
    const x = p.x - p.width / 2;
    const y = p.y - p.height / 2;
    const el = s(
      'g',
      {
        class: `gnode plan-${n.plan} kind-${n.kind}${n.inCycle ? ' in-cycle' : ''}`,
        'data-id': n.id,
        'data-plan': n.plan,
        'data-kind': n.kind,
        transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
        tabindex: n.kind === 'unit' ? 0 : undefined,
        role: n.kind === 'unit' ? 'link' : undefined,
      },
      s('title', {}, describe(n)),
      s('rect', { width: p.width, height: p.height, rx: 6 }),
      s('text', { x: 10, y: 19 }, clip(n.id, 26)),
      n.blockedBy ? s('text', { x: 10, y: 33, class: 'sub' }, clip(`waits for ${n.blockedBy}`, 28)) : null,
    );
    if (n.kind === 'unit') {
      const go = () => {
        location.hash = `#unit-${uriPart(n.id)}`;
      };
      el.addEventListener('click', go);
      el.addEventListener('keydown', (ev) => {
        if (/** @type {KeyboardEvent} */ (ev).key === 'Enter') go();
      });
    }
    return el;
  });
  const marker = (/** @type {string} */ id) =>
    s(
      'marker',
      {
        id,
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 7,
        markerHeight: 7,
        orient: 'auto-start-reverse',
      },
      s('path', { d: 'M0 0 L10 5 L0 10 z' }),
    );
  const svg = s(
    'svg',
    {
      class: 'graph-svg',
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': `Dependency graph: ${nodes.length} nodes, ${edges.length} edges`,
    },
    s('defs', {}, marker('arrow'), marker('arrow-cycle')),
    s('g', { class: 'edges' }, edgeEls),
    s('g', { class: 'nodes' }, nodeEls),
  );
  svg.style.height = `${Math.round(Math.min(520, Math.max(90, height)))}px`;
  return { svg, width, height, note };
}

/** Zoom and pan by the viewBox: buttons, the wheel, and dragging. @param {SVGSVGElement} svg @param {number} w @param {number} hgt */
function zoomable(svg, w, hgt) {
  let vb = { x: 0, y: 0, w, h: hgt };
  const set = () => svg.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
  /** @param {number} f @param {number} [cx] @param {number} [cy] */
  const zoom = (f, cx = vb.x + vb.w / 2, cy = vb.y + vb.h / 2) => {
    const nw = Math.min(w * 4, Math.max(40, vb.w * f));
    const k = nw / vb.w;
    vb = { x: cx - (cx - vb.x) * k, y: cy - (cy - vb.y) * k, w: nw, h: vb.h * k };
    set();
  };
  svg.addEventListener(
    'wheel',
    (e) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const r = svg.getBoundingClientRect();
      zoom(
        e.deltaY > 0 ? 1.25 : 0.8,
        vb.x + ((e.clientX - r.left) / r.width) * vb.w,
        vb.y + ((e.clientY - r.top) / r.height) * vb.h,
      );
    },
    { passive: false },
  );
  /** @type {{x:number,y:number,vx:number,vy:number}|undefined} */
  let drag;
  svg.addEventListener('pointerdown', (e) => {
    if (/** @type {Element} */ (e.target).closest('.gnode')) return;
    drag = { x: e.clientX, y: e.clientY, vx: vb.x, vy: vb.y };
  });
  window.addEventListener('pointerup', () => {
    drag = undefined;
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    vb.x = drag.vx - ((e.clientX - drag.x) / r.width) * vb.w;
    vb.y = drag.vy - ((e.clientY - drag.y) / r.height) * vb.h;
    set();
  });
  return {
    in: () => zoom(0.8),
    out: () => zoom(1.25),
    fit: () => {
      vb = { x: 0, y: 0, w, h: hgt };
      set();
    },
  };
}

/**
 * The run's shape: its dependency graph (or phases / stages in order) laid out by dagre and drawn as SVG, each
 * node coloured by where core's resume plan puts it; cycle edges and unknown dependencies (dashed ghost nodes)
 * marked. Hidden for runs without a shape.
 * @param {string} base @param {string} runRef
 */
export function graphSection(base, runRef) {
  const body = h('div', { class: 'graph-wrap' });
  const legend = h('div', { class: 'graph-legend chips' });
  const title = h('span', null, 'Graph');
  const el = h(
    'section',
    {
      class: 'panel section-anchor',
      id: 'graph',
      'aria-labelledby': 'graph-title',
      hidden: true,
      dataset: { run: runRef },
    },
    h('header', null, h('h2', { id: 'graph-title' }, title)),
    legend,
    body,
  );
  /** @type {string | undefined} */
  let drawnEtag;
  const refresh = async () => {
    const { data, changed } = await getJson(`${base}/graph`);
    if (!changed && drawnEtag) return;
    drawnEtag = 'drawn';
    el.hidden = data.shape === 'none';
    el.dataset.shape = data.shape;
    if (data.shape === 'none') return;
    title.textContent =
      data.shape === 'dependencies' ? 'Dependency graph' : data.shape === 'phases' ? 'Phases' : 'Stages';
    const counts = /** @type {Record<string, number>} */ ({});
    for (const n of data.nodes) if (n.kind !== 'ghost') counts[n.plan] = (counts[n.plan] ?? 0) + 1;
    replace(
      legend,
      Object.entries(counts).map(([p, n]) =>
        h(
          'span',
          { class: `chip legend-${p}` },
          h('span', { class: 'swatch' }),
          PLAN_LABEL[p],
          ' ',
          h('b', null, String(n)),
        ),
      ),
      data.cycles.length
        ? h(
            'span',
            { class: 'chip legend-cycle' },
            h('span', { class: 'swatch' }),
            `cycle: ${data.cycles.map((/** @type {string[]} */ c) => c.join(' ⇄ ')).join('; ')}`,
          )
        : null,
      data.unknown.length
        ? h(
            'span',
            { class: 'chip legend-ghost' },
            h('span', { class: 'swatch' }),
            `unknown: ${data.unknown.join(', ')}`,
          )
        : null,
    );
    const d = draw(data);
    const z = zoomable(/** @type {SVGSVGElement} */ (/** @type {unknown} */ (d.svg)), d.width, d.height);
    const btn = (/** @type {string} */ label, /** @type {string} */ t, /** @type {() => void} */ f) =>
      h('button', { type: 'button', class: 'btn ghost', title: t, 'aria-label': t, onclick: f }, label);
    replace(
      body,
      h(
        'div',
        { class: 'graph-tools' },
        btn('+', 'Zoom in', z.in),
        btn('−', 'Zoom out', z.out),
        btn('Fit', 'Fit the graph', z.fit),
        h('span', { class: 'faint' }, d.note || 'Ctrl + wheel zooms, drag pans, a node opens its unit'),
      ),
      d.svg,
    );
  };
  return { el, refresh };
}
