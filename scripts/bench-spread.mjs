// `npm run bench:spread`: what the spread under estimated rates costs (issue 47). The
// same generated page list of 50,000 pages on 500 servers is run by `freshlab policies`
// twice: with each rate's interval (rate_low, rate_high: ×/÷ 2, as a history's export
// gives them), so that each shown run also counts every visit under 20 redraws of the
// rates, and without those two columns (the rates alone). Medians of 3 runs each,
// alternated; peak resident memory by /usr/bin/time. The extra time is given per
// request (the runs' requests, from the JSON) and the extra memory per page. Writes the
// section between <!-- spread --> and <!-- /spread --> in BENCHMARKS.md; the experiments'
// estimates use the same two figures (core/sim/redrawn.rs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchStart, root, run, say, writeSection } from './shell.mjs';
import { seeded } from './seeded.mjs';

const PAGES = 50_000;
const SERVERS = 500;
const { loadAtStart, bin } = benchStart();
const dir = path.join(root, 'build', 'bench-spread');
fs.mkdirSync(dir, { recursive: true });

// rates log-uniform over 0.01–10 a day, a tenth never seen changed (interval [0, high])
const random = seeded(47);
const rows = [];
for (let i = 0; i < PAGES; i++) {
  const never = random() < 0.1;
  const rate = never ? 0 : 10 ** (-2 + 3 * random());
  const [low, high] = never ? [0, 0.01] : [rate / 2, rate * 2];
  rows.push({ page: `https://s${i % SERVERS}.example/p${i}`, server: `s${i % SERVERS}.example`, rate, low, high });
}
const withIntervals = path.join(dir, 'estimated.csv');
const ratesOnly = path.join(dir, 'rates.csv');
fs.writeFileSync(withIntervals, `page,server,change_rate,rate_low,rate_high\n${rows.map((r) => `${r.page},${r.server},${r.rate},${r.low},${r.high}`).join('\n')}\n`);
fs.writeFileSync(ratesOnly, `page,server,change_rate\n${rows.map((r) => `${r.page},${r.server},${r.rate}`).join('\n')}\n`);

// six years at C = half the repository's change rate (MERGE, DELAYED, RANDOM, UNPOLITE):
// tens of millions of requests, so that the fixed costs (reading, allocating) stay small
const ARGS = ['policies', '--capacities', '0.5', '--crawlers', '[]', '--json', '--quiet'];
const timed = fs.existsSync('/usr/bin/time');
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const peakOf = (stderr) => 1024 * Number(/peak-kb (\d+)/.exec(stderr)?.[1] ?? NaN);
function time(list) {
  const args = [...ARGS, '--repository', list];
  const started = process.hrtime.bigint();
  const out = timed ? run('/usr/bin/time', ['-f', 'peak-kb %M', bin, ...args], { capture: true }) : run(bin, args, { capture: true });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const result = JSON.parse(out.stdout);
  const curves = result.capacities.flatMap((c) => c.curves);
  return { seconds, peak: timed ? peakOf(out.stderr) : NaN, requests: curves.reduce((n, c) => n + c.requests, 0), spread: curves.filter((c) => c.spread).length, curves: curves.length };
}

const runs = { with: [], without: [] };
for (let k = 0; k < 3; k++) {
  say(`freshlab policies on the rates with their intervals (run ${k + 1} of 3)`);
  runs.with.push(time(withIntervals));
  say(`freshlab policies on the rates alone (run ${k + 1} of 3)`);
  runs.without.push(time(ratesOnly));
}
const [w, o] = [runs.with, runs.without].map((r) => ({ seconds: median(r.map((x) => x.seconds)), peak: median(r.map((x) => x.peak)), requests: r[0].requests, spread: r[0].spread, curves: r[0].curves }));
if (w.requests !== o.requests) throw new Error(`the two runs made ${w.requests} and ${o.requests} requests: the intervals changed the schedule`);
if (w.spread !== w.curves || o.spread !== 0) throw new Error(`spread on ${w.spread} of ${w.curves} curves with intervals, ${o.spread} without`);
const perRequest = ((w.seconds - o.seconds) / w.requests) * 1e9;
const perPage = (w.peak - o.peak) / PAGES;
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const mb = (b) => (b / 2 ** 20).toFixed(1);

const section = `<!-- spread -->
## The spread under estimated rates: its cost

\`npm run bench:spread\` (scripts/bench-spread.mjs): \`freshlab ${ARGS[0]} --repository LIST ${ARGS.slice(1).join(' ')}\` on
a generated page list of ${PAGES.toLocaleString('en')} pages on ${SERVERS} servers (rates log-uniform over 0.01–10 a day, a
tenth never seen changed), once with each rate's interval (\`rate_low\`, \`rate_high\`: ×/÷ 2; every shown run is then
also counted under 20 redraws of the rates) and once without those columns. The same schedule either way (the same
${w.requests.toLocaleString('en')} requests over its ${w.curves} runs, checked). Medians of 3 runs each, alternated; peak
resident memory by \`/usr/bin/time\`. ${os.cpus().length} cores of ${cpu}, load average ${loadAtStart.toFixed(2)} at the start,
${new Date().toISOString().slice(0, 10)}.

| page list | seconds | peak memory (MB) |
|---|---:|---:|
| rates with their intervals (spread of 20 redraws) | ${w.seconds.toFixed(2)} | ${mb(w.peak)} |
| rates alone | ${o.seconds.toFixed(2)} | ${mb(o.peak)} |

The spread costs **${perRequest.toFixed(0)} ns a request** and **${perPage.toFixed(0)} bytes a page** here (wall-clock, the
runs shared over the cores); the estimates of \`policies\`, \`learning\` and \`crawlers\` add
\`redrawn::SECONDS_PER_REQUEST\` (59 ns, ${(perRequest / 59).toFixed(2)} times less than measured here) and
\`redrawn::BYTES_PER_PAGE\` + 8 (168 bytes) a page (core/sim/redrawn.rs). Like every time estimate, the 59 ns was measured
on the machine the other figures' constants were (its CPU is named in those tables); a slower machine shows more.

Runs: ${JSON.stringify(runs)}
<!-- /spread -->`;
writeSection(path.join(root, 'BENCHMARKS.md'), 'spread', section);
say(`BENCHMARKS.md: the spread costs ${perRequest.toFixed(0)} ns a request and ${perPage.toFixed(0)} bytes a page`);
