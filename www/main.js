// The page: compiles the core once, draws with it on the main thread, and hands the
// compiled module to a worker that runs the experiments.
import init, * as core from '../build/pkg/freshlab.js';
import wasmBytes from '../build/pkg/freshlab_bg.wasm';
import workerSource from '../build/worker.bundle';
import { WorkerClient } from './worker-client.js';
import { UrlState } from './ui/state.js';
import { theoryView } from './views/theory.js';
import { policiesView } from './views/policies.js';
import { sensorsView } from './views/sensors.js';
import { wikipediaView } from './views/wikipedia.js';
import { partitionView } from './views/partition.js';

globalThis.__freshlabPanic = (message) => {
  document.querySelector('#fatal').textContent = `Internal error while drawing: ${message}. Please reload the page.`;
  document.querySelector('#fatal').hidden = false;
};

/** Theme (auto, light, dark) and text size, from the URL and the toolbar. */
function applyAppearance(globals) {
  const root = document.documentElement;
  const theme = ['light', 'dark'].includes(globals.theme) ? globals.theme : 'auto';
  const font = Number(globals.font);
  root.dataset.theme = theme;
  root.dataset.fontScale = font >= 0.5 && font <= 4 ? String(font) : '1';
  root.style.setProperty('--font-scale', root.dataset.fontScale);
  document.querySelector('#theme').value = theme;
  document.querySelector('#font').value = ['1', '1.25', '1.5', '2'].includes(root.dataset.fontScale) ? root.dataset.fontScale : '1';
  document.dispatchEvent(new Event('freshlab:appearance'));
}

/** `?embed=<panel>` shows that panel's chart alone, filling the frame (for slides);
 * `figure=k` picks one of several charts, `controls=1` keeps its key fields. */
function applyEmbed(globals) {
  const panel = globals.embed;
  if (!panel) return;
  const section = document.getElementById(panel);
  if (!section?.classList.contains('panel')) {
    const fatal = document.querySelector('#fatal');
    fatal.textContent = `Nothing to embed under the name "${panel}": use one of ${[...document.querySelectorAll('.panel')].map((p) => p.id).join(', ')}.`;
    fatal.hidden = false;
    return;
  }
  const root = document.documentElement;
  root.classList.add('embed');
  if (globals.controls === '1') root.classList.add('embed-controls');
  root.dataset.figure = String(Math.max(0, Number(globals.figure ?? 1) - 1) || 0);
  section.classList.add('embedded', `show-figure-${root.dataset.figure}`);
  // alone in its frame, the panel's title is the page's heading
  section.querySelector('h3')?.setAttribute('aria-level', '1');
}

async function boot() {
  const state = new UrlState();
  applyAppearance(state.globals);
  applyEmbed(state.globals);
  state.onGlobals = applyAppearance;
  for (const id of ['theme', 'font']) {
    document.querySelector(`#${id}`).addEventListener('change', (e) => {
      state.setGlobal(id, e.target.value === 'auto' || e.target.value === '1' ? null : e.target.value);
      applyAppearance(state.globals);
    });
  }
  const module = await WebAssembly.compile(wasmBytes);
  await init({ module_or_path: module });
  const client = new WorkerClient(workerSource, module);
  globalThis.freshlab = { core, client, state };
  theoryView(document.querySelector('#view-theory'), core, client, state);
  policiesView(document.querySelector('#view-policies'), core, client, state);
  sensorsView(document.querySelector('#view-sensors'), core, client, state);
  wikipediaView(document.querySelector('#view-wikipedia'), core, client, state);
  partitionView(document.querySelector('#view-partition'), core, client, state);
  document.documentElement.dataset.ready = 'true';
}

boot().catch((error) => {
  const fatal = document.querySelector('#fatal');
  fatal.textContent = `Freshlab could not start: ${error.message}`;
  fatal.hidden = false;
});
