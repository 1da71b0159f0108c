// `npm run bench:webbase`: the thesis's whole Fig 5.8 at WEBBASE scale — six years, C = 1,
// 10 and 90 %, MERGE, DELAYED, RANDOM and UNPOLITE — estimated from a sample of servers
// (`--sample-servers 64`, each figure with its 95 % interval), run natively on every core
// and in headless Chromium on the page's pool of workers, as a user would start it. Records
// the wall-clock time, the peak memory (the CLI's resident set; the browser's renderer
// process, where the page's workers live), how often the page reported progress, and
// whether the page's numbers are the CLI's to the last bit. Writes the section between
// <!-- webbase --> and <!-- /webbase --> in BENCHMARKS.md (which `npm run bench` keeps).
// Takes about 30 minutes on this 2-core machine (7 natively, 18 in the page, the builds): it
// is kept out of `npm run bench`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, run, say, output, writeSection } from './shell.mjs';
import { ensureNodeModules, ensureBuildTools, ensureChromium } from './setup.mjs';

ensureNodeModules();
ensureBuildTools();
ensureChromium();
const { build } = await import('./build.mjs');
const { open } = await import('../tests/e2e/browser.mjs');

const loadAtStart = os.loadavg()[0];
if (loadAtStart > 0.5) say(`the machine is busy (load average ${loadAtStart.toFixed(2)}): other work running now slows every figure`);
const draws = 32; // the webbase_sampled preset
const bin = path.join(root, 'target', 'release', 'freshlab');
say('building the CLI (cargo build --release) and the page (dist/)…');
run('cargo', ['build', '--release', '--quiet', '--bin', 'freshlab']);
await build();

// `--horizon-days D`: a shorter run, to try the script (the section then says so)
const daysAt = process.argv.indexOf('--horizon-days');
const days = daysAt > 0 ? process.argv[daysAt + 1] : null;
const args = ['policies', '--webbase', '--crawlers', '[]', '--sample-servers', String(draws), ...(days ? ['--horizon-days', days] : [])];
const estimate = JSON.parse(run(bin, [...args, '--estimate'], { capture: true }).stdout);
const config = estimate.config;

say(`native: the sampled Fig 5.8 on every core (about ${Math.round(estimate.cost.seconds / 60 / os.availableParallelism())} minutes)…`);
const timed = fs.existsSync('/usr/bin/time');
const started = process.hrtime.bigint();
const nativeRun = timed ? run('/usr/bin/time', ['-f', 'peak-kb %M', bin, ...args, '--quiet', '--json'], { capture: true }) : run(bin, [...args, '--quiet', '--json'], { capture: true });
const native = {
  seconds: Number(process.hrtime.bigint() - started) / 1e9,
  peak_bytes: timed ? 1024 * Number(/peak-kb (\d+)/.exec(nativeRun.stderr)?.[1] ?? NaN) : null,
  threads: os.availableParallelism(),
  result: JSON.parse(nativeRun.stdout),
};

/** Resident bytes of Chromium's renderer processes (the page and its workers), summed. */
function rendererBytes() {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('--type=renderer')) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += rss ? 1024 * Number(rss[1]) : 0;
    } catch {
      // the process ended while it was read
    }
  }
  return total;
}

say('browser: the same run from the page, on its pool of workers (tens of minutes; progress every minute)…');
const browser = await open();
const page = await browser.newPage(`${browser.url}?view=policies`);
await page.waitForFunction(() => globalThis.freshlab?.client);
await new Promise((resolve) => setTimeout(resolve, 2000));
const rendererBefore = rendererBytes();
let peakRenderer = 0;
const sampler = setInterval(() => (peakRenderer = Math.max(peakRenderer, rendererBytes())), 2000);
await page.exposeFunction('benchProgress', (line) => say(line));
const inPage = await page.evaluate((config) => {
  const pool = globalThis.freshlab.client;
  let reports = 0;
  let logged = 0;
  let firstPartialMs = null;
  const run = pool.run(config, {
    onProgress: (fraction, partial, ms) => {
      reports += 1;
      if (partial && firstPartialMs === null) firstPartialMs = ms;
      if (ms - logged >= 60000) {
        logged = ms;
        globalThis.benchProgress(`  ${(100 * fraction).toFixed(1)} % after ${(ms / 60000).toFixed(1)} min`);
      }
    },
  });
  return run.promise.then(({ result, elapsedMs, workers, memoryBytes }) => ({ result, seconds: elapsedMs / 1000, workers: workers ?? 1, memoryBytes, reports, firstPartialMs }));
}, config);
clearInterval(sampler);
const chromium = (await browser.context.browser()?.version?.()) ?? output('chromium', ['--version']);
await browser.close();

/** Every number of two results, side by side: how many differ and by how much at most. */
function compare(a, b, where = '', out = { numbers: 0, differ: 0, largest: 0, first: null }) {
  if (typeof a === 'number' && typeof b === 'number') {
    out.numbers += 1;
    if (!Object.is(a, b)) {
      out.differ += 1;
      out.largest = Math.max(out.largest, Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300));
      out.first ??= where;
    }
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) compare(a[key], b[key], `${where}.${key}`, out);
  } else if (a !== b) {
    out.differ += 1;
    out.first ??= where;
  }
  return out;
}
const same = compare(native.result, inPage.result);
const minutes = (s) => (s / 60).toFixed(1);
const gb = (b) => (b ? `${(b / 1e9).toFixed(2)} GB` : '—');
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const section = `<!-- webbase -->
### The whole sampled Fig 5.8, natively and in the page (\`npm run bench:webbase\`)

${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load average ${loadAtStart.toFixed(2)} at the start; ${chromium}; commit ${output('git', ['log', '-1', '--format=%h'])}.
\`freshlab ${args.join(' ')}\` (the preset's 14,500,000 pages on 5,462 servers, ${days ? `**${days} day${days === '1' ? '' : 's'} only**` : 'six years'},
three capacities, four policies; ${native.result.sample?.servers ?? '—'} servers simulated), and the same
configuration started from the page (\`freshlab.client.run\`, the page's pool), one run each.
Its estimate before it ran: ${minutes(estimate.cost.seconds)} minutes on one thread, ${gb(estimate.cost.bytes)} (each of the page's workers holds the whole repository:
${gb(inPage.memoryBytes / inPage.workers)} of module memory each, ${(inPage.memoryBytes / inPage.workers / estimate.cost.bytes).toFixed(2)} times the estimate).

| where | workers or threads | minutes | peak memory | progress reports | numbers equal to the CLI's |
|---|---:|---:|---:|---:|---|
| native (CLI) | ${native.threads} | ${minutes(native.seconds)} | ${gb(native.peak_bytes)} resident | — | — |
| the page | ${inPage.workers} | ${minutes(inPage.seconds)} | ${gb(peakRenderer)} (renderer processes; ${gb(rendererBefore)} before the run), of which the workers' modules ${gb(inPage.memoryBytes)} | ${inPage.reports.toLocaleString('en')}, the first partial curves after ${inPage.firstPartialMs === null ? '—' : `${(inPage.firstPartialMs / 1000).toFixed(0)} s`} | ${same.differ === 0 ? `all ${same.numbers.toLocaleString('en')}, to the last bit` : `${same.differ} of ${same.numbers.toLocaleString('en')} differ (largest relative difference ${same.largest.toExponential(2)}, first at \`${same.first}\`)`} |
<!-- /webbase -->`;
writeSection(path.join(root, 'BENCHMARKS.md'), 'webbase', section);
say('wrote the webbase section of BENCHMARKS.md');
console.log(section);
