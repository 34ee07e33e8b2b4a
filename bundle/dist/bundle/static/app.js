// @ts-check
// The viewer's client: plain ES modules from this server (no CDN, no framework, no inline script).
import { $, h, replace } from './dom.js';
import { tickAgo } from './fmt.js';
import { bindKeys } from './keys.js';
import { startLive } from './live.js';
import { rawPage } from './raw-page.js';
import { runPage } from './run-page.js';
import { runsPage } from './runs-page.js';
import { tab } from './tab-count.js';

const main = /** @type {HTMLElement} */ ($('#main'));
const kind = document.body.dataset.page;
const page = kind === 'run' ? runPage(main) : kind === 'raw' ? rawPage(main) : runsPage(main);

// triage: the tab's title and favicon count the runs that need a person, on every live change of any run
// (`onAny` sees each change before the page filters it; the refresh wrapper covers reconnects and full reloads).
// Paused, they stay as they are, like the page, until the reader resumes.
const pageLive = /** @type {any} */ (page).live;
const live = startLive(
  async (change) => {
    await page.refresh(change);
    tab.soon();
  },
  { wants: pageLive?.wants, onAny: () => tab.soon() },
);
tab.update().catch(() => undefined);
bindKeys(page.keys, live.toggle);
page.refresh().catch((e) => {
  replace(main, h('div', { class: 'error-box' }, `Cannot load: ${e.message}`));
});
setInterval(tickAgo, 30_000);
