import { html, type Raw, raw } from './html.js';

export type PageName = 'runs' | 'run' | 'raw';

export interface PageOptions {
  readonly page: PageName;
  readonly title: string;
  /** The project's directory name, shown in the header. */
  readonly project: string;
  /**
   * The client's modules under /static/, its entry first (routes/static.ts `clientModules`): the entry is the
   * page's script, and every other module is named as a `modulepreload` so the browser fetches them all at once.
   */
  readonly modules: readonly string[];
  /** Data for the client, as data- attributes (escaped). */
  readonly data?: Readonly<Record<string, string>>;
}

/**
 * The HTML shell of every page. The client module renders the content from the JSON API; the shell carries
 * no inline script or style (the CSP forbids both) and every value in it is escaped.
 */
export function layout(opts: PageOptions): string {
  const attrs = Object.entries(opts.data ?? {})
    .map(([k, v]) => html` data-${k.replace(/[^a-z-]/g, '')}="${v}"`.value)
    .join('');
  const page: Raw = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${opts.title} · ckpt</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/app.css">
<link rel="stylesheet" href="/static/shape.css">
${raw(
  opts.modules
    .slice(1)
    .map((m) => html`<link rel="modulepreload" href="/static/${m}">\n`.value)
    .join(''),
)}<script type="module" src="/static/${opts.modules[0] ?? 'app.js'}"></script>
</head>
<body data-page="${opts.page}" data-project="${opts.project}"${raw(attrs)}>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar">
  <a class="brand" href="/" title="All runs"><span class="logo" aria-hidden="true"></span>ckpt</a>
  <span class="project" title="Project directory">${opts.project}</span>
  <span class="spacer"></span>
  <span id="live" class="live" role="status" aria-live="polite">connecting…</span>
  <button id="pause" class="btn ghost" type="button" aria-pressed="false" title="Pause live refresh (p)">Pause</button>
  <button id="help-btn" class="btn ghost" type="button" title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">?</button>
</header>
<main id="main" tabindex="-1"><p class="loading">Loading…</p><noscript><p>The viewer needs JavaScript; the same facts are at <a href="/api/">/api/</a>.</p></noscript></main>
<dialog id="help" aria-labelledby="help-title">
  <h2 id="help-title">Keyboard</h2>
  <dl class="keys">
    <dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>next / previous row</dd>
    <dt><kbd>Enter</kbd></dt><dd>open the selected row</dd>
    <dt><kbd>/</kbd></dt><dd>search</dd>
    <dt><kbd>u</kbd></dt><dd>up: back to all runs</dd>
    <dt><kbd>p</kbd></dt><dd>pause or resume live refresh</dd>
    <dt><kbd>?</kbd></dt><dd>this help</dd>
    <dt><kbd>Esc</kbd></dt><dd>close, clear</dd>
  </dl>
  <p class="dialog-actions"><button id="help-close" class="btn" type="button">Close</button></p>
</dialog>
</body>
</html>
`;
  return page.value;
}
