// The page: compiles the core once, draws with it on the main thread, and hands the
// compiled module to a worker that runs the experiments.
import init, * as core from '../build/pkg/freshlab.js';
import wasmBytes from '../build/pkg/freshlab_bg.wasm';
import workerSource from '../build/worker.bundle';
import { WorkerClient } from './worker-client.js';
import { theoryView } from './views/theory.js';
import { policiesView } from './views/policies.js';
import { sensorsView } from './views/sensors.js';

globalThis.__freshlabPanic = (message) => {
  document.querySelector('#fatal').textContent = `Internal error while drawing: ${message}. Please reload the page.`;
  document.querySelector('#fatal').hidden = false;
};

/** `?embed=<panel id>` shows that panel alone, filling the frame (for slides). */
function applyEmbed() {
  const panel = new URLSearchParams(location.search).get('embed');
  if (!panel) return;
  const section = document.getElementById(panel);
  if (!section?.classList.contains('panel')) {
    const fatal = document.querySelector('#fatal');
    fatal.textContent = `Nothing to embed under the name "${panel}": use one of ${[...document.querySelectorAll('.panel')].map((p) => p.id).join(', ')}.`;
    fatal.hidden = false;
    return;
  }
  document.documentElement.classList.add('embed');
  section.classList.add('embedded');
}

async function boot() {
  applyEmbed();
  const module = await WebAssembly.compile(wasmBytes);
  await init({ module_or_path: module });
  const client = new WorkerClient(workerSource, module);
  globalThis.freshlab = { core, client };
  theoryView(document.querySelector('#view-theory'), core, client);
  policiesView(document.querySelector('#view-policies'), core, client);
  sensorsView(document.querySelector('#view-sensors'), core, client);
  document.documentElement.dataset.ready = 'true';
}

boot().catch((error) => {
  const fatal = document.querySelector('#fatal');
  fatal.textContent = `Freshlab could not start: ${error.message}`;
  fatal.hidden = false;
});
