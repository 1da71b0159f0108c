// `npm run bench:history`: issue 47's reading speed, side by side. A generated CDX capture
// index (the 11-field format, ~130 bytes a line, pages captured 10 to 60 times, one
// capture in ten an error, a redirect or a revisit) of 1 GB is read natively by
// `freshlab history FILE --quiet --json` and by a plain Python reader of the same file
// (what a researcher would write: split each line, keep each URL's last digest, count
// changes and intervals, write a rate per URL); a 100 MB one is read in the page's worker
// (chosen in the history view's file box, as a user would). Medians of 3 native runs,
// peak resident memory by /usr/bin/time; the worker's peak is its WebAssembly memory
// (which only grows). Writes the section between <!-- history --> and <!-- /history -->
// in BENCHMARKS.md. `--gigabytes G` changes the native file's size (default 1).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchStart, root, run, say, writeSection } from './shell.mjs';
import { seeded } from './seeded.mjs';

const at = process.argv.indexOf('--gigabytes');
const gigabytes = at > 0 ? Number(process.argv[at + 1]) : 1;
if (!(gigabytes > 0 && gigabytes <= 16)) throw new Error('--gigabytes: give a size from 0.01 to 16');
const { loadAtStart, bin } = benchStart();
const dir = path.join(root, 'build', 'bench-history');
fs.mkdirSync(dir, { recursive: true });


/** Writes a CDX index of about `bytes` to `file` (kept between runs), returns its lines. */
function writeIndex(file, bytes) {
  const marker = `${file}.lines`;
  if (fs.existsSync(file) && fs.existsSync(marker) && Math.abs(fs.statSync(file).size - bytes) < 0.01 * bytes) return Number(fs.readFileSync(marker, 'utf8'));
  say(`writing ${path.relative(root, file)} (${(bytes / 2 ** 20).toFixed(0)} MB of CDX)…`);
  const u = seeded(47);
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let lines = 0;
  let chunk = [' CDX N b a m s k r M S V g'];
  for (let page = 0; written < bytes; page++) {
    const host = `site${page % 20000}.example`;
    const url = `http://${host}/p${page}.html`;
    const key = `example,site${page % 20000})/p${page}.html`;
    const captures = 10 + Math.floor(50 * u());
    const rate = Math.exp(Math.log(1 / 200) + u() * Math.log(400));
    let t = Date.UTC(2020, 0, 1) + 1000 * 86400 * 30 * u();
    let version = 0;
    for (let c = 0; c < captures; c++) {
      t += 1000 * 86400 * 30 * -Math.log(1 - u());
      if (u() < 1 - Math.exp(-rate * 30)) version++;
      const stamp = new Date(t).toISOString().replace(/[-:T]/g, '').slice(0, 14);
      const digest = `D${page.toString(36).toUpperCase()}V${version}`.padEnd(32, 'A');
      const roll = u();
      const line =
        roll < 0.04
          ? `${key} ${stamp} ${url} text/html 404 - - - 512 ${written} crawl-00001.warc.gz`
          : roll < 0.07
            ? `${key} ${stamp} ${url} text/html 301 ${digest.replace('D', 'R')} http://${host}/ - 300 ${written} crawl-00001.warc.gz`
            : roll < 0.1
              ? `${key} ${stamp} ${url} warc/revisit - ${digest} - - 400 ${written} crawl-00001.warc.gz`
              : `${key} ${stamp} ${url} text/html 200 ${digest} - - 9000 ${written} crawl-00001.warc.gz`;
      chunk.push(line);
      written += line.length + 1;
      lines++;
    }
    if (chunk.length > 20000) {
      fs.writeSync(fd, `${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  if (chunk.length) fs.writeSync(fd, `${chunk.join('\n')}\n`);
  fs.closeSync(fd);
  fs.writeFileSync(marker, String(lines));
  return lines;
}

const big = path.join(dir, `index-${gigabytes}g.cdx`);
const bigLines = writeIndex(big, gigabytes * 2 ** 30);
const small = path.join(dir, 'index-100m.cdx');
const smallLines = writeIndex(small, 100 * 2 ** 20);

// the plain Python reader a researcher would write
const python = path.join(dir, 'plain_reader.py');
fs.writeFileSync(
  python,
  `import sys
# url -> [last digest, last time, intervals, changes, first time]
pages = {}
for line in open(sys.argv[1], encoding="utf-8"):
    f = line.split()
    if len(f) < 6 or f[0] == "CDX" or f[5] == "-":
        continue
    if not (f[4].startswith("2") or f[3] == "warc/revisit"):
        continue
    p = pages.get(f[2])
    if p is None:
        pages[f[2]] = [f[5], f[1], 0, 0, f[1]]
        continue
    if f[1] == p[1]:
        continue
    p[2] += 1
    p[3] += f[5] != p[0]
    p[0], p[1] = f[5], f[1]
with open(sys.argv[2], "w") as out:
    out.write("page,intervals,changes\\n")
    for url, p in pages.items():
        out.write(f"{url},{p[2]},{p[3]}\\n")
`,
);

const timed = fs.existsSync('/usr/bin/time');
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const peakOf = (stderr) => 1024 * Number(/peak-kb (\d+)/.exec(stderr)?.[1] ?? NaN);
function time(command, args) {
  const started = process.hrtime.bigint();
  const out = timed ? run('/usr/bin/time', ['-f', 'peak-kb %M', command, ...args], { capture: true }) : run(command, args, { capture: true });
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, peak: timed ? peakOf(out.stderr) : NaN, stdout: out.stdout };
}
const bytes = fs.statSync(big).size;
const runs = { freshlab: [], python: [] };
let brief = null;
for (let k = 0; k < 3; k++) {
  say(`freshlab history ${path.relative(root, big)} (run ${k + 1} of 3)`);
  const r = time(bin, ['history', big, '--quiet', '--json']);
  brief = JSON.parse(r.stdout);
  runs.freshlab.push({ seconds: r.seconds, peak: r.peak });
  say(`python3 plain_reader.py (run ${k + 1} of 3)`);
  const p = time('python3', [python, big, path.join(dir, 'python-out.csv')]);
  runs.python.push({ seconds: p.seconds, peak: p.peak });
}

// the page's worker: the 100 MB index chosen in the history view
say('the page: 100 MB of CDX read in the worker (npm run build first)…');
run('node', [path.join(root, 'scripts', 'build.mjs')]);
const { open } = await import('../tests/e2e/browser.mjs');
const browser = await open({ viewport: { width: 1280, height: 900 } });
const page = await browser.newPage(`${browser.url}?view=history`);
await page.waitForFunction(() => /records kept|generated captures/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 120_000 });
await page.evaluate(() => {
  const client = globalThis.freshlab.client;
  const original = client.run.bind(client);
  client.run = (...args) => {
    const r = original(...args);
    r.promise.then((d) => (globalThis.__lastRun = { elapsedMs: d.elapsedMs, memoryBytes: d.memoryBytes, kept: d.result.kept }));
    return r;
  };
});
const loadStarted = Date.now();
await page.locator('#history input[type=file]').setInputFiles(small);
await page.waitForFunction(() => /Loaded index-100m/.test(document.querySelector('#history .trace-status')?.textContent ?? ''), null, { timeout: 120_000 });
const loadSeconds = (Date.now() - loadStarted) / 1000;
await page.locator('#history').getByRole('button', { name: 'Read' }).click();
await page.waitForFunction(() => globalThis.__lastRun, null, { timeout: 600_000 });
const worker = await page.evaluate(() => globalThis.__lastRun);
await browser.close();

const f = { seconds: median(runs.freshlab.map((r) => r.seconds)), peak: median(runs.freshlab.map((r) => r.peak)) };
const p = { seconds: median(runs.python.map((r) => r.seconds)), peak: median(runs.python.map((r) => r.peak)) };
const mb = (b) => (b / 2 ** 20).toFixed(0);
const rate = (b, s) => (b / 2 ** 20 / s).toFixed(0);
const smallBytes = fs.statSync(small).size;
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const section = `<!-- history -->
## Reading records (issue 47; \`npm run bench:history\`)

A generated CDX capture index (11 fields, ~130 bytes a line; pages captured 10 to 60 times;
one capture in ten an error, a redirect or a revisit record; synthetic, written by the
script), read natively by \`freshlab history FILE --quiet --json\` (every page's estimate and
interval; one thread) and by a plain Python reader of the same file (split, keep each
URL's last digest, count intervals and changes, write them: no estimate, no interval, no
checks), and in the page's worker (the history view's file box, a 100 MB index). Native:
medians of 3 runs, alternated; peak resident memory by \`/usr/bin/time\`. Worker: its
WebAssembly memory after the run (it only grows: the most it held, the 100 MB text
included). ${os.cpus().length} cores of ${cpu}, load average ${loadAtStart.toFixed(2)} at the start, ${new Date().toISOString().slice(0, 10)}.

| reader | file | lines | seconds | MB/s | lines/s | peak memory (MB) |
|---|---:|---:|---:|---:|---:|---:|
| freshlab history (native) | ${mb(bytes)} MB | ${bigLines.toLocaleString('en')} | ${f.seconds.toFixed(1)} | ${rate(bytes, f.seconds)} | ${Math.round(bigLines / f.seconds).toLocaleString('en')} | ${mb(f.peak)} |
| plain Python reader | ${mb(bytes)} MB | ${bigLines.toLocaleString('en')} | ${p.seconds.toFixed(1)} | ${rate(bytes, p.seconds)} | ${Math.round(bigLines / p.seconds).toLocaleString('en')} | ${mb(p.peak)} |
| freshlab in the page's worker | ${mb(smallBytes)} MB | ${smallLines.toLocaleString('en')} | ${(worker.elapsedMs / 1000).toFixed(1)} | ${rate(smallBytes, worker.elapsedMs / 1000)} | ${Math.round(smallLines / (worker.elapsedMs / 1000)).toLocaleString('en')} | ${mb(worker.memoryBytes)} |

freshlab ÷ Python, native, MB/s: **${(p.seconds / f.seconds).toFixed(2)}×**. The native run kept
${brief.records.toLocaleString('en')} records of ${brief.pages.toLocaleString('en')} pages (memory grows with those, not the file:
the file is streamed). The page hands the file to its worker, which decodes it as it loads
(${loadSeconds.toFixed(1)} s for the 100 MB, before the run; the page's main thread never holds its text), then reads it at the run.

Runs: ${JSON.stringify(runs)}
<!-- /history -->`;
writeSection(path.join(root, 'BENCHMARKS.md'), 'history', section);
say(`BENCHMARKS.md: freshlab ${rate(bytes, f.seconds)} MB/s, Python ${rate(bytes, p.seconds)} MB/s, worker ${rate(smallBytes, worker.elapsedMs / 1000)} MB/s`);
process.exit(0);
