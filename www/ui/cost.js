// What a run will cost, from the core's cost model (the same one that refuses a run
// over the limits): one sentence under the form.
import { bytes, duration, number } from './format.js';

/** "Needs about 40 MB and 8.8 × 10^7 requests: roughly 10 s here." — or the reason it
 * cannot run. `pending`: the estimate's pilot is still running in the worker (the time
 * is a first guess until it answers). */
export function costNote(core, config, pending = false) {
  try {
    // the time is this page's: the core measures its own speed (main.js, probeSpeed)
    return costText(core.estimate(config), pending);
  } catch (error) {
    return error.message ?? String(error);
  }
}

/** The sentence for `cost` (core.estimate's answer, here or in the worker). */
export function costText(cost, pending = false) {
  const guess = pending ? ' (a first guess: a short pilot run in the background refines it)' : '';
  return `Needs about ${bytes(cost.bytes)} and ${number(cost.work, 2)} ${cost.unit}: roughly ${duration(cost.seconds)} here${guess}.`;
}
