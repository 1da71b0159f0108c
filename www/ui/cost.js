// What a run will cost, from the core's cost model (the same one that refuses a run
// over the limits): one sentence under the form.

const number = (v) => (v >= 1e5 ? v.toExponential(1).replace('e+', ' × 10^') : Math.round(v).toLocaleString('en'));

function bytes(b) {
  if (b >= 1e9) return `${(b / 1e9).toFixed(1)} GB`;
  if (b >= 1e6) return `${(b / 1e6).toFixed(b >= 1e8 ? 0 : 1)} MB`;
  return `${Math.max(1, Math.round(b / 1e3))} KB`;
}

function duration(seconds) {
  for (const [size, name] of [
    [86400, 'days'],
    [3600, 'hours'],
    [60, 'minutes'],
  ])
    if (seconds >= 2 * size) return `${(seconds / size).toFixed(1)} ${name}`;
  return `${Math.max(seconds, 0.1).toFixed(1)} s`;
}

/** "Needs about 40 MB and 8.8 × 10^7 requests: roughly 10 s here." — or the reason it cannot run. */
export function costNote(core, experiment, config) {
  try {
    const cost = core.estimate({ ...config, experiment });
    // WebAssembly in a browser runs at about half the native speed (BENCHMARKS.md)
    return `Needs about ${bytes(cost.bytes)} and ${number(cost.work)} ${cost.unit}: roughly ${duration(2 * cost.seconds)} here.`;
  } catch (error) {
    return error.message ?? String(error);
  }
}
