// What a run will cost, from the core's cost model (the same one that refuses a run
// over the limits): one sentence under the form.
import { bytes, duration, number } from './format.js';

/** "Needs about 40 MB and 8.8 × 10^7 requests: roughly 10 s here." — or, for a worst
 * case, "… and at most …: at most 10 s here" — or the reason it cannot run. */
export function costNote(core, config) {
  try {
    const cost = core.estimate(config);
    const [most, time] = cost.worst_case ? ['at most ', 'at most'] : ['', 'roughly'];
    // WebAssembly in a browser runs at about half the native speed (BENCHMARKS.md)
    return `Needs about ${bytes(cost.bytes)} and ${most}${number(cost.work, 2)} ${cost.unit}: ${time} ${duration(2 * cost.seconds)} here${
      cost.worst_case ? ' (if each tuning run of a deployed crawler reaches its most requests; usually far less)' : ''
    }.`;
  } catch (error) {
    return error.message ?? String(error);
  }
}
