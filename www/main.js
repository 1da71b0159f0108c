// The page: compiles the core once (streamed from its own .wasm file, cached for every
// embed), draws with it on the main thread, and hands the compiled module to a worker
// that runs the experiments. One view at a time (ui/router.js).
import init, * as core from '../build/pkg/freshlab.js';
import workerSource from '../build/worker.bundle';
import { WorkerPool } from './worker-client.js';
import { UrlState } from './ui/state.js';
import { Router, requestedView, useRegistry } from './ui/router.js';
import { FORMER_PANELS } from './views/index.js';
import { forwardDeckKeys } from './ui/slides.js';

// the build names the module by its content, so that a browser keeps it until it changes
/* global FRESHLAB_WASM */
const WASM_URL = FRESHLAB_WASM;

globalThis.__freshlabPanic = (message) => fatal(`Internal error while drawing: ${message}. Please reload the page.`);

function fatal(text) {
  const element = document.querySelector('#fatal');
  element.textContent = text;
  element.hidden = false;
}

/** The compiled module: streamed over http(s); from a page opened as a file, where
 * fetch is refused, from the copy the build writes into a script beside the page. */
async function compileCore() {
  if (location.protocol === 'http:' || location.protocol === 'https:') {
    const response = fetch(WASM_URL);
    try {
      return await WebAssembly.compileStreaming(response);
    } catch {
      // a host that serves .wasm with another media type: compile from the bytes
      return WebAssembly.compile(await (await response).clone().arrayBuffer());
    }
  }
  await new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'freshlab-wasm.js';
    script.onload = resolve;
    script.onerror = () => reject(new Error('freshlab-wasm.js is missing beside index.html (opened as a file, the page needs it)'));
    document.head.append(script);
  });
  const text = atob(globalThis.__freshlabWasm);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return WebAssembly.compile(bytes);
}

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
  applyLayout();
  document.dispatchEvent(new Event('freshlab:appearance'));
}

/** The width under which a page is laid out as on a phone, in the root's text size
 * (style.css's `.narrow` rules): 760 pixels at the normal size, twice that at "for a
 * hall", where a 1280-pixel projector has a phone's room for text and gets the chart
 * first, at the whole width. Returns whether the layout changed. */
const NARROW_REM = 47.5;
/** The height under which the view's heading shrinks and the header scrolls away
 * (style.css's `.short` rules): a 720-pixel screen from "for a room" up, a
 * 1080-pixel one "for a hall". */
const SHORT_REM = 34;
function applyLayout() {
  const root = document.documentElement;
  const rem = parseFloat(getComputedStyle(root).fontSize);
  const narrow = innerWidth <= NARROW_REM * rem;
  const short = innerHeight <= SHORT_REM * rem;
  const changed = narrow !== root.classList.contains('narrow') || short !== root.classList.contains('short');
  root.classList.toggle('narrow', narrow);
  root.classList.toggle('short', short);
  return changed;
}

/** `?embed=<panel>` shows that panel's chart alone, filling the frame (for slides);
 * `figure=k` picks one of several charts, `controls=1` adds its key fields (or
 * `controls=p,capacity` the fields named) with its Run button; the deck's keys pressed
 * inside it go on to the deck. */
function applyEmbed(globals) {
  const id = globals.embed;
  if (!id) return;
  const section = document.getElementById(id);
  if (!section?.classList.contains('panel')) {
    fatal(`Nothing to embed under the name "${id}": use the name of an experiment, such as level-sets, factor-curves, policies, sensors or partition.`);
    return;
  }
  const root = document.documentElement;
  root.classList.add('embed');
  if (globals.controls && globals.controls !== '0') root.classList.add('embed-controls');
  forwardDeckKeys();
  section.classList.add('embedded');
  // alone in its frame, the panel's title is the page's heading
  section.querySelector('h2')?.setAttribute('aria-level', '1');
}

// an embed is an embed from its first paint (the page's header never flashes on a slide)
if (new URLSearchParams(location.search).has('embed')) document.documentElement.classList.add('embed');

async function boot() {
  const state = new UrlState(FORMER_PANELS);
  applyAppearance(state.globals);
  state.onGlobals = applyAppearance;
  addEventListener('resize', () => {
    if (applyLayout()) document.dispatchEvent(new Event('freshlab:appearance'));
  });
  for (const id of ['theme', 'font']) {
    document.querySelector(`#${id}`).addEventListener('change', (e) => {
      state.setGlobal(id, e.target.value === 'auto' || e.target.value === '1' ? null : e.target.value);
      applyAppearance(state.globals);
    });
  }
  const module = await compileCore();
  await init({ module_or_path: module });
  const client = new WorkerPool(workerSource, module, core);
  useRegistry(core);
  const router = new Router({ main: document.querySelector('#main'), nav: document.querySelector('#views'), core, client, state });
  globalThis.freshlab = { core, client, state, router };
  router.show(requestedView(state));
  applyEmbed(state.globals);
  document.documentElement.dataset.ready = 'true';
  probeSpeed();
}

/** Measures how fast this page runs the engine (the core's speed probe, a few ms each,
 * in tasks of their own once the page is idle): estimated times are then this page's. */
async function probeSpeed() {
  for (let k = 0; k < 6; k++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    core.speed_probe();
  }
  document.documentElement.dataset.slowness = core.speed_probe().toFixed(2);
  document.dispatchEvent(new Event('freshlab:speed'));
}

boot().catch((error) => fatal(`Freshlab could not start: ${error.message}`));
