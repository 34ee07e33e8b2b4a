// @ts-check
// The viewer's client: plain ES modules from this server (no CDN, no framework, no inline script).
import { $, h, replace } from './dom.js';
import { tickAgo } from './fmt.js';
import { bindKeys } from './keys.js';
import { startLive } from './live.js';
import { rawPage } from './raw-page.js';
import { runPage } from './run-page.js';
import { runsPage } from './runs-page.js';

const main = /** @type {HTMLElement} */ ($('#main'));
const kind = document.body.dataset.page;
const page = kind === 'run' ? runPage(main) : kind === 'raw' ? rawPage(main) : runsPage(main);

const live = startLive(page.refresh, /** @type {any} */ (page).live);
bindKeys(page.keys, live.toggle);
page.refresh().catch((e) => {
  replace(main, h('div', { class: 'error-box' }, `Cannot load: ${e.message}`));
});
setInterval(tickAgo, 30_000);
