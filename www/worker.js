// The simulation worker: runs experiments in slices so that progress, partial results
// and cancellation reach the page while the core computes.
import init, * as core from '../build/pkg/freshlab.js';
import { exported, hold, withTexts } from './worker-files.js';

let ready = null;
let lastPanic = null;
const cancelled = new Set();
// the results this worker computed that the page shows (core.Held), by the key of the run
// (or join) that made them: a run's latest replaces its earlier ones; the page releases
// a result once it shows another
const kept = new Map();

/** Keeps `held` under `key`, freeing what was kept there. */
function keep(key, held) {
  kept.get(key)?.free();
  kept.set(key, held);
}

/** What a request throws for a result this worker does not keep, when the page did not
 * send what it was shown of it (HeldResult sends it then, and only then). */
const NOT_KEPT = 'kept';

/** The speed probes this worker's module has run (the 'check' request's estimate). */
let probes = 0;

/** The result kept under `key`; where this worker has none (restarted since: an internal
 * error, or a run that did not stop when cancelled), `shown`, what the page was shown of
 * it, kept again (core.Held.again refuses a cut of it, saying to run again), or the
 * request refused with NOT_KEPT for the page to send it. */
function keptAt(key, shown) {
  if (!kept.has(key)) {
    if (shown === undefined) throw { field: NOT_KEPT, message: 'this worker does not keep the result: send what the page was shown of it' };
    keep(key, core.Held.again(shown));
  }
  return kept.get(key);
}

/** What the page gets of `held`, kept under `key` (the page's HeldResult names it): what
 * its tables show and the figures; a part of a run cut over the pool (`figures` false)
 * goes whole, to be joined, and is not kept. */
function sent(key, held, figures) {
  if (!figures) {
    const whole = held.whole();
    held.free();
    return { result: whole };
  }
  keep(key, held);
  return { result: held.shown(), figures: held.figures() };
}

// The core's panic hook calls this before the WebAssembly trap.
globalThis.__freshlabPanic = (message) => {
  lastPanic = message;
};

/** Hands control back to the event loop (a macrotask without timer clamping). */
function yieldToEvents() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** Errors from the core arrive as {field, message} objects; traps as RuntimeError. */
function report(id, error) {
  if (error instanceof WebAssembly.RuntimeError || lastPanic !== null) {
    postMessage({ type: 'error', id, panic: true, field: '', message: `internal error: ${lastPanic ?? error.message}` });
    lastPanic = null;
  } else if (error && typeof error === 'object' && 'message' in error && !(error instanceof Error)) {
    postMessage({ type: 'error', id, panic: false, field: error.field ?? '', message: error.message, pair: error.pair ?? null, kept: error.kept ?? null });
  } else {
    postMessage({ type: 'error', id, panic: false, field: '', message: String(error?.message ?? error) });
  }
}

/** Answers request `id` with what `compute` returns (a file held, a pilot, a join), or
 * with the error it throws. */
async function answer(id, compute) {
  try {
    postMessage({ type: 'result', id, result: await compute(), elapsedMs: 0, memoryBytes: 0 });
  } catch (error) {
    report(id, error);
  }
}

const SLICE_MS = 8;
// progress four times a second; a partial result costs a pass over the run's pages (both
// concepts of the sensors; a sample's 6 M pages at the WEBBASE scale, about 0.14 s), so one
// comes with a report only when the last took at most 1/PARTIAL_SHARE of the time since:
// the chart stays live and partial results take at most about 5 % of the run
const REPORT_MS = 250;
const PARTIAL_SHARE = 20;

/** Runs `config`, reporting progress and partial results, then the result; each result
 * kept here, the page sent what its tables show and the figures (`sent`), unless
 * `figures` is false (a part of a run cut over the pool, which the pool joins). */
async function execute(id, config, buildMs, figures) {
  const started = performance.now();
  let run;
  try {
    // building the run (a repository's pages, their allocation) is one call that says
    // nothing until it returns: the page's watchdog waits up to `buildMs` for it
    postMessage({ type: 'building', id, allowMs: buildMs ?? 0 });
    run = new core.Run(await withTexts(config));
  } catch (error) {
    report(id, error);
    return;
  }
  let budget = 20000;
  let lastReport = 0;
  let lastPartial = 0;
  let partialMs = 0;
  try {
    while (!run.done()) {
      if (cancelled.delete(id)) {
        run.free();
        postMessage({ type: 'cancelled', id });
        return;
      }
      const t0 = performance.now();
      const fraction = run.advance(budget);
      const spent = performance.now() - t0;
      budget = Math.min(1e9, Math.max(500, budget * (SLICE_MS / Math.max(spent, 0.25))));
      if (t0 - lastReport > REPORT_MS && !run.done()) {
        lastReport = t0;
        let partial = {};
        const now = performance.now();
        if (now - lastPartial > PARTIAL_SHARE * partialMs) {
          const held = run.partial();
          if (held !== undefined) partial = sent(id, held, figures);
          lastPartial = performance.now();
          partialMs = lastPartial - now;
        }
        postMessage({ type: 'progress', id, fraction, elapsedMs: performance.now() - started, partial: partial.result, figures: partial.figures });
      }
      await yieldToEvents();
    }
    const { result, figures: shown } = sent(id, run.finish(), figures);
    run.free();
    // the module's memory only grows: its size now is the most this worker has held
    const memoryBytes = (await ready).memory.buffer.byteLength;
    postMessage({ type: 'result', id, result, figures: shown, elapsedMs: performance.now() - started, memoryBytes });
  } catch (error) {
    report(id, error);
  }
}

self.onmessage = async ({ data }) => {
  switch (data.type) {
    case 'init':
      ready = init({ module_or_path: data.module });
      await ready;
      postMessage({ type: 'ready' });
      break;
    case 'run':
      await ready;
      execute(data.id, data.config, data.buildMs, data.figures !== false);
      break;
    case 'cancel':
      cancelled.add(data.id);
      break;
    case 'hold':
      await ready;
      answer(data.id, () => hold(data));
      break;
    case 'export':
      await ready;
      answer(data.id, () => exported({ config: data.config, result: keptAt(data.key, data.shown).whole() }));
      break;
    case 'check':
      await ready;
      // the form's check of a configuration whose files are too big for the page's thread
      // (panel.js verdictOf); refused beside the results kept here, it is priced alone, as
      // the page's thread prices it: the run frees them
      answer(data.id, () => {
        // the time said is this machine's, measured here as the page's thread measures it
        for (; probes < 3; probes++) core.speed_probe();
        const problem = core.validate(data.config);
        return problem && problem.kept == null ? { problem } : { cost: core.estimate(data.config) };
      });
      break;
    case 'pilot':
      await ready;
      answer(data.id, () => core.pilot(data.config) ?? null);
      break;
    case 'merge':
      await ready;
      answer(data.id, () => sent(data.key, core.merge(data.config, data.results), true));
      break;
    case 'figures':
      await ready;
      answer(data.id, () => keptAt(data.key, data.shown).figures(data.config));
      break;
    case 'table':
      await ready;
      answer(data.id, () => keptAt(data.key, data.shown).table(data.reader));
      break;
    case 'release':
      kept.get(data.key)?.free();
      kept.delete(data.key);
      break;
    case 'release-all':
      for (const held of kept.values()) held.free();
      kept.clear();
      break;
    case 'tab-test':
      await ready;
      // only the tests' own build (dist-test/) has this entry point
      answer(data.id, () => Reflect.get(core, 'tab_for_test')(Number(data.message)) ?? null);
      break;
    case 'panic-test':
    case 'hang-test':
      await ready;
      try {
        // only the tests' own build (dist-test/) has these entry points
        Reflect.get(core, data.type === 'panic-test' ? 'panic_for_test' : 'hang_for_test')(data.message);
      } catch (error) {
        report(data.id, error);
      }
      break;
  }
};
