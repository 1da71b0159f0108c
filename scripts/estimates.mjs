// `npm run estimates`: every experiment's estimate (`--estimate`) against what its run
// measures, on generated repositories and on page lists: wall time (one thread, as the
// estimate is made) and peak memory (the process's peak resident size less that of a run
// that computes nothing). Writes, per experiment, the median and worst ratio of
// estimate to measurement into docs/researchers.md (<!-- figures:estimates -->), and the
// runs one by one into test-results/estimates.json. The time bound (within 2× both ways)
// is judged on runs of a second or more, the memory bound (never below, at most 1.5×
// above) on runs of 20 MB or more, as issue 45 asks; smaller runs are listed, not judged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import zlib from 'node:zlib';
import { root, run, say } from './shell.mjs';

const cli = path.join(root, 'target', 'release', 'freshlab');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-estimates-'));

/** A page list of `pages` pages on about `servers` servers (most pages on few of them),
 * change rates log-uniform over 10⁻³–10 a day, or `rate` for every page. */
function pageList(name, pages, servers, rate = null) {
  const file = path.join(dir, `${name}.csv`);
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const rows = ['page,server,change_rate,weight'];
  for (let i = 0; i < pages; i++) {
    const s = Math.floor(servers * random() ** 2);
    rows.push(`https://host${s}.example/p${i},host${s}.example,${(rate ?? 10 ** (-3 + 4 * random())).toPrecision(5)},1`);
  }
  fs.writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

/** A StormCrawler crawler-conf.yaml whose AdaptiveScheduler starts pages at 12 hours,
 * its decrement rate 0.3, a 2 s delay, keeping the signature and interval it needs. */
function adaptiveStormcrawler(name) {
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(
    file,
    [
      'config:',
      '  scheduler.class: "org.apache.stormcrawler.persistence.AdaptiveScheduler"',
      '  fetchInterval.default: 720',
      '  scheduler.adaptive.fetchInterval.rate.decr: 0.3',
      '  fetcher.server.delay: 2.0',
      '  metadata.persist:',
      '    - signature',
      '    - fetchInterval',
      '',
    ].join('\n'),
  );
  return file;
}

/** A page list of `hosts` × `each` pages, every page typed by its `Content-Type`
 * metadata as the sample adaptive-mimetypes.txt lists: 70 % text/html changing 0.3–30
 * times a day, 10 % RSS feeds 1–50, 20 % PDF 0.005–0.5 (log-uniform). */
function typedList(name, hosts, each) {
  const file = path.join(dir, `${name}.csv`);
  let seed = 3;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const rows = ['page,server,change_rate,weight,metadata'];
  for (let h = 0; h < hosts; h++) {
    for (let i = 0; i < each; i++) {
      const u = random();
      const [type, low, high] = u < 0.7 ? ['text/html', 0.3, 30] : u < 0.8 ? ['application/rss+xml', 1, 50] : ['application/pdf', 0.005, 0.5];
      const rate = low * (high / low) ** random();
      rows.push(`https://typed${h}.example/p${i},typed${h}.example,${rate.toPrecision(5)},1,Content-Type=${type}`);
    }
  }
  fs.writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

/** A change trace of `articles` bursty articles over 91 days of 2007: each article's
 * intervals lognormal (σ 2), its mean rate log-uniform over 300–3,000 changes a year. */
function burstyTrace(name, articles) {
  const file = path.join(dir, `${name}.csv`);
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const normal = () => Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
  const [start, end, sigma] = [1_167_609_600, 1_167_609_600 + 91 * 86_400, 2];
  const rows = ['page,timestamp'];
  for (let a = 0; a < articles; a++) {
    const mean = (365 * 86_400) / (300 * 10 ** random());
    // a lognormal interval of this mean: e^(μ + σ²/2) = mean
    const mu = Math.log(mean) - (sigma * sigma) / 2;
    let [t, last] = [start + 86_400 * random(), -1];
    for (;;) {
      t += Math.exp(mu + sigma * normal());
      if (t >= end) break;
      // whole seconds: two changes in one second are one
      if (Math.floor(t) > last) rows.push(`article ${a},${(last = Math.floor(t))}`);
    }
  }
  fs.writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

/** A capture index (CDX) of `pages` pages on 500 hosts, each captured daily for
 * `days` days, its content changing every 1–4 captures. */
function captureIndex(name, pages, days) {
  const file = path.join(dir, `${name}.cdx`);
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, ' CDX N b a m s k r M S V g\n');
  for (let day = 0; day < days; day++) {
    const stamp = `2026${String(1 + Math.floor(day / 28)).padStart(2, '0')}${String(1 + (day % 28)).padStart(2, '0')}000000`;
    const lines = [];
    for (let p = 0; p < pages; p++) {
      lines.push(`example,site${p % 500})/p${p} ${stamp} http://site${p % 500}.example/p${p} text/html 200 D${p}V${Math.floor(day / (1 + (p % 4)))}${'A'.repeat(24)} - - 9000 ${day * pages + p} crawl-00001.warc.gz`);
    }
    fs.writeSync(out, `${lines.join('\n')}\n`);
  }
  fs.closeSync(out);
  return file;
}

/** A sitemap of `pages` URLs on 300 hosts, each with its lastmod and changefreq. */
function sitemap(name, pages) {
  const file = path.join(dir, `${name}.xml`);
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n');
  for (let from = 0; from < pages; from += 10_000) {
    const urls = [];
    for (let p = from; p < Math.min(pages, from + 10_000); p++) {
      urls.push(`<url><loc>https://site${p % 300}.example.org/articles/${p}/some-title-words</loc><lastmod>2026-0${1 + (p % 9)}-1${p % 10}</lastmod><changefreq>weekly</changefreq></url>`);
    }
    fs.writeSync(out, `${urls.join('\n')}\n`);
  }
  fs.writeSync(out, '</urlset>\n');
  fs.closeSync(out);
  return file;
}

/** `snapshots` daily snapshots of a sitemap of `pages` URLs on 300 hosts, each named by
 * its date: URL p changes at noon every 1–5 days, its lastmod the latest change. */
function sitemapSnapshots(name, snapshots, pages) {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  const day = (d) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
  return Array.from({ length: snapshots }, (_, s) => {
    const file = path.join(folder, `sitemap-${day(s + 1)}.xml`);
    const urls = [];
    for (let p = 0; p < pages; p++) {
      const every = 1 + (p % 5);
      urls.push(`<url><loc>https://site${p % 300}.example.org/articles/${p}/some-title-words</loc><lastmod>${day(s - (s % every))}T12:00:00Z</lastmod><changefreq>weekly</changefreq></url>`);
    }
    fs.writeFileSync(file, `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
    return file;
  });
}

/** `files` Heritrix crawl logs of one page each on 50 hosts, its `visits` fetches a month
 * apart, its digest changing every fourth (a crawl's logs kept a page a file). */
function crawlLogs(name, files, visits) {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  return Array.from({ length: files }, (_, f) => {
    const file = path.join(folder, `crawl-${f}.log`);
    const lines = Array.from({ length: visits }, (_, v) => `2025-${String(1 + (v % 12)).padStart(2, '0')}-01T05:00:00Z 200 10 http://s${f % 50}.example/p${f} - - text/html #001 20250101000000+1 sha1:D${f}x${v >> 2} - -\n`);
    fs.writeFileSync(file, lines.join(''));
    return file;
  });
}

/** A WARC file of `pages` pages fetched `visits` times: responses whose payloads are
 * `size` bytes (± half) of words (they deflate 2.6 times, HTML more), each page changing
 * every 1–5 visits; with their payload digests or without (the reader then hashes
 * them), gzipped a record a member where `gzip` (as WARC writers write them). */
function warcFile(name, pages, visits, { size, digests, gzip }) {
  const file = path.join(dir, `${name}.warc${gzip ? '.gz' : ''}`);
  let seed = 11;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const words = Array.from({ length: 3000 }, () => Array.from({ length: 2 + Math.floor(8 * random()) }, () => String.fromCharCode(97 + Math.floor(26 * random()))).join(''));
  const pool = Array.from({ length: 200_000 }, () => words[Math.floor(words.length * random())]).join(' ');
  const out = fs.openSync(file, 'w');
  for (let v = 0; v < visits; v++) {
    const date = `2026-${String(1 + Math.floor(v / 28)).padStart(2, '0')}-${String(1 + (v % 28)).padStart(2, '0')}T12:00:00Z`;
    const records = [];
    for (let p = 0; p < pages; p++) {
      const length = Math.floor(size * (0.5 + random()));
      const at = Math.floor((pool.length - length - 1) * random());
      const body = `<html>page ${p} version ${Math.floor(v / (1 + (p % 5)))}</html>${pool.slice(at, at + length)}`;
      const http = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      const digest = digests ? `WARC-Payload-Digest: sha1:D${p}V${Math.floor(v / (1 + (p % 5)))}\r\n` : '';
      const record = `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://site${p % 100}.example/p${p}\r\nWARC-Date: ${date}\r\nContent-Type: application/http; msgtype=response\r\n${digest}Content-Length: ${http.length}\r\n\r\n${http}\r\n\r\n`;
      records.push(gzip ? zlib.gzipSync(record) : Buffer.from(record));
    }
    fs.writeSync(out, Buffer.concat(records));
  }
  fs.closeSync(out);
  return file;
}

/** A file of the page's samples. */
const sample = (name) => path.join(root, 'www', 'samples', name);

/** Runs the CLI under GNU time: {seconds, bytes (peak resident), code}. */
function measure(args) {
  const out = spawnSync('/usr/bin/time', ['-f', '%e %M', cli, ...args, '--quiet', '--threads', '1'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const [seconds, kb] = out.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { seconds, bytes: kb * 1024, code: out.status, stderr: out.stderr };
}

function estimate(args) {
  const out = spawnSync(cli, [...args, '--estimate'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(`${args.join(' ')} --estimate: ${out.stderr}`);
  const { cost, refused, slowness } = JSON.parse(out.stdout);
  return { ...cost, refused, slowness };
}

say('building the release CLI (cargo build --release)…');
run('cargo', ['build', '--release', '--bin', 'freshlab']);
say(`writing page lists into ${dir}…`);
const lists = {
  small: pageList('5k', 5000, 300),
  medium: pageList('100k', 100_000, 2000),
  large: pageList('535k', 535_000, 5000),
  fast: pageList('fast', 2, 1, 1e6),
  slow: pageList('slow', 2000, 100, 0.002),
  sample: path.join(root, 'www', 'samples', 'sample-pages.csv'),
};
say(`writing capture indexes, WARC files and crawl logs into ${dir}…`);
const records = {
  cdx: captureIndex('index', 50_000, 30),
  once: captureIndex('crawl', 500_000, 1),
  sitemap: sitemap('sitemap', 500_000),
  snapshots: sitemapSnapshots('snapshots', 30, 30_000),
  warc: warcFile('digests', 4000, 12, { size: 2250, digests: true, gzip: false }),
  hashed: warcFile('hashed', 500, 40, { size: 40_000, digests: false, gzip: false }),
  gzipped: warcFile('gzipped', 4000, 24, { size: 2250, digests: false, gzip: true }),
  logs: crawlLogs('logs', 2000, 12),
  moreLogs: crawlLogs('more-logs', 10_000, 12),
};
const baseline = measure(['factor-curves', '--points', '10']).bytes;

// [experiment, what it is, arguments]
const CASES = [
  ['level_sets', 'defaults, fine grid', ['level-sets', '--grid', '1001']],
  ['certify', 'defaults', ['certify']],
  ['per_page', 'many replications', ['per-page', '--replications', '200', '--revisits', '20000']],
  ['policies', 'classroom defaults', ['policies']],
  ['policies', 'generated, 200,000 pages', ['policies', '--repository.pages', '200000', '--repository.servers', '2000', '--horizon-days', '365', '--crawlers', '[]']],
  ['policies', 'page list, 5,000 pages on 300 servers', ['policies', '--repository', lists.small]],
  ['policies', 'page list, 100,000 pages', ['policies', '--repository', lists.medium, '--horizon-days', '365']],
  ['policies', 'page list, 535,000 pages (31 MB)', ['policies', '--repository', lists.large, '--crawlers', '[]']],
  ['allocate', 'generated, 1,500,000 pages, --out', ['allocate', '--repository.pages', '1500000', '--repository.servers', '5000', '--out', path.join(dir, 'allocate.json')]],
  ['allocate', 'page list, 535,000 pages', ['allocate', '--repository', lists.large, '--capacity', '50000']],
  ['learning', 'classroom defaults', ['learning']],
  ['learning', 'generated, 300,000 pages', ['learning', '--repository.pages', '300000', '--repository.servers', '3000', '--capacity', '30000']],
  ['learning', 'page list, 5,000 pages', ['learning', '--repository', lists.small, '--capacity', '1000']],
  ['learning', 'two pages changing 10⁶ times a day', ['learning', '--repository', lists.fast, '--capacity', '100', '--horizon-days', '30', '--epoch-days', '5', '--explore-days', '10', '--policies', 'oracle,uniform,merge_learned']],
  ['learning', 'the sample page list', ['learning', '--repository', lists.sample, '--capacity', '150']],
  ['learning', '2,000 pages changing once in 500 days, more bandwidth than the crawlers can spend', ['learning', '--repository', lists.slow, '--capacity', '20000', '--politeness-seconds', '60']],
  ['channel', 'many windows', ['channel', '--windows', '200000']],
  ['sensors', 'the article (200,000 pages)', ['sensors']],
  ['sensors', 'robots sweep', ['sensors', '--pages', '50000', '--robot-sweep', '1,2,4,8']],
  ['bursty', 'defaults', ['bursty']],
  ['bursty', 'short P (120 s)', ['bursty', '--politeness-seconds', '120']],
  ['bursty', 'a trace of 400 bursty articles', ['bursty', '--source', 'trace', '--trace', burstyTrace('trace', 400)]],
  ['partition', 'defaults', ['partition']],
  ['partition', 'thesis scale, 2 robot counts', ['partition', '--thesis', '--robots', '2,10']],
  ['partition', 'hashed URLs, 30 robots', ['partition', '--schemes', 'hash_url', '--robots', '2,10,30']],
  ['history', 'generated captures, defaults', ['history']],
  ['history', 'generated captures, 200,000 pages', ['history', '--pages', '200000', '--servers', '5000']],
  ['history', 'a capture index in time order, 1,500,000 lines', ['history', records.cdx]],
  ['history', 'a capture index of one crawl, 500,000 pages', ['history', records.once]],
  ['history', 'a sitemap of 500,000 URLs', ['history', records.sitemap]],
  ['history', '30 daily snapshots of a sitemap of 30,000 URLs', ['history', ...records.snapshots]],
  ['history', 'a WARC file, 48,000 responses with digests', ['history', records.warc]],
  ['history', 'a WARC file, 20,000 responses of 40 KB hashed', ['history', records.hashed]],
  ['history', 'a WARC file gzipped a record a member, 96,000 responses hashed', ['history', records.gzipped]],
  ['history', '2,000 crawl logs of 12 fetches of a page', ['history', ...records.logs]],
  ['history', '10,000 crawl logs of 12 fetches of a page', ['history', ...records.moreLogs]],
  ['crawlers', 'classroom defaults (Nutch, shipped)', ['crawlers']],
  ['crawlers', 'adaptive Nutch, 1,000,000 pages', ['crawlers', '--crawler-config', sample('nutch-site.xml'), '--repository.pages', '1000000', '--repository.servers', '20000']],
  ['crawlers', 'Nutch hourly, servers of 1 request in 500 s', ['crawlers', '--set', 'db.fetch.interval.default=3600', '--server-capacity', '0.002', '--response-ms', '300', '--horizon-days', '60', '--merge-backoff', 'google']],
  ['crawlers', 'adaptive Nutch, sync delta, 1 hour to 14 days, 40,000 pages', ['crawlers', '--set', 'db.fetch.schedule.class=org.apache.nutch.crawl.AdaptiveFetchSchedule; db.fetch.schedule.adaptive.min_interval=3600; db.fetch.schedule.adaptive.max_interval=1209600', '--repository.pages', '40000', '--repository.servers', '400']],
  ['crawlers', 'StormCrawler shipped, tuned (classroom)', ['crawlers', '--crawler', 'stormcrawler', '--tune']],
  ['crawlers', 'adaptive StormCrawler, 12 hours, tuned, the sample hosts', ['crawlers', '--crawler', 'stormcrawler', '--crawler-config', adaptiveStormcrawler('storm-adaptive'), '--repository', sample('sample-hosts.csv'), '--tune']],
  ['crawlers', 'adaptive Nutch, tuned, the sample hosts with their host file', ['crawlers', '--crawler-config', sample('nutch-site.xml'), '--repository', sample('sample-hosts.csv'), '--host-intervals', sample('adaptive-host-specific-intervals.txt'), '--tune']],
  ['crawlers', 'Nutch shipped, tuned, servers of 1 request in 20 s', ['crawlers', '--tune', '--server-capacity', '0.05', '--response-ms', '200']],
  ['crawlers', 'Nutch daily DefaultFetchSchedule, 1 s delay, tuned, the sample hosts', ['crawlers', '--set', 'db.fetch.interval.default=86400; fetcher.server.delay=1.0', '--repository', sample('sample-hosts.csv'), '--tune']],
  ['crawlers', 'the same with daily cycles and generate.max.count 100', ['crawlers', '--set', 'db.fetch.interval.default=86400; fetcher.server.delay=1.0; generate.max.count=100', '--nutch-cycle-hours', '24', '--repository', sample('sample-hosts.csv'), '--tune']],
  ['crawlers', 'MimeAdaptive Nutch, tuned, 4,000 pages typed by Content-Type, 120 days', ['crawlers', '--set', 'db.fetch.schedule.class=org.apache.nutch.crawl.MimeAdaptiveFetchSchedule; db.fetch.interval.default=86400; fetcher.server.delay=5.0', '--mime-rates', sample('adaptive-mimetypes.txt'), '--repository', typedList('typed', 40, 100), '--horizon-days', '120', '--tune']],
  ['crawlers', 'Heritrix, the sample crawler-beans.cxml, tuned, the sample pages', ['crawlers', '--crawler-config', sample('crawler-beans.cxml'), '--repository', sample('sample-pages.csv'), '--tune']],
  ['crawlers', 'StormCrawler shipped, servers of 1 request in 20 s, 20,000 pages on 200 servers, 60 days', ['crawlers', '--crawler', 'stormcrawler', '--server-capacity', '0.05', '--response-ms', '200', '--repository.pages', '20000', '--repository.servers', '200', '--repository.top-share', '0.55', '--horizon-days', '60']],
  ['crawlers', 'Scrapy retrying, servers of 1 request in 100 s', ['crawlers', '--crawler', 'scrapy', '--set', 'RETRY_TIMES=5', '--recrawl-days', '0.25', '--server-capacity', '0.01', '--repository.pages', '50000', '--repository.servers', '2000', '--horizon-days', '60']],
];

const runs = [];
for (const [experiment, what, args] of CASES) {
  const e = estimate(args);
  if (e.refused) {
    runs.push({ experiment, what, refused: e.refused });
    say(`${experiment}, ${what}: refused (${e.refused})`);
    continue;
  }
  const m = measure(args);
  if (m.code !== 0) throw new Error(`${args.join(' ')}: exit ${m.code}\n${m.stderr}`);
  const bytes = Math.max(1, m.bytes - baseline);
  const r = { experiment, what, slowness: e.slowness, estimated_seconds: e.seconds, seconds: m.seconds, time_ratio: e.seconds / Math.max(m.seconds, 0.01), estimated_bytes: e.bytes, bytes, memory_ratio: e.bytes / bytes, worst_case: Boolean(e.worst_case) };
  runs.push(r);
  say(`${experiment}, ${what}: ${m.seconds.toFixed(2)} s (estimated ${e.seconds.toFixed(2)}: ×${r.time_ratio.toFixed(2)}), ${(bytes / 1e6).toFixed(1)} MB (estimated ${(e.bytes / 1e6).toFixed(1)}: ×${r.memory_ratio.toFixed(2)})`);
}
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
fs.writeFileSync(path.join(root, 'test-results', 'estimates.json'), `${JSON.stringify(runs, null, 1)}\n`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};
const worst = (xs, bad) => (xs.length ? xs.reduce((w, x) => (bad(x) > bad(w) ? x : w)) : null);
const f = (x) => (x === null ? '—' : x.toFixed(2));
const rows = [];
let outside = 0;
for (const experiment of [...new Set(runs.map((r) => r.experiment))]) {
  const mine = runs.filter((r) => r.experiment === experiment && !r.refused);
  const timed = mine.filter((r) => r.seconds >= 1).map((r) => r.time_ratio);
  const sized = mine.filter((r) => r.bytes >= 20e6).map((r) => r.memory_ratio);
  const timeBad = (x) => Math.abs(Math.log(x));
  const memoryBad = (x) => (x < 1 ? 10 + (1 - x) : x);
  outside += timed.filter((x) => x > 2 || x < 0.5).length + sized.filter((x) => x < 1 || x > 1.5).length;
  rows.push(`| ${experiment} | ${mine.length} | ${timed.length} | ${f(median(timed))} | ${f(worst(timed, timeBad))} | ${sized.length} | ${f(median(sized))} | ${f(worst(sized, memoryBad))} |`);
}
const slowness = median(runs.filter((r) => r.slowness).map((r) => r.slowness));
const table = `Estimate ÷ measured on ${runs.length} runs (\`npm run estimates\`, ${new Date().toISOString().slice(0, 10)}, one thread, ${os.cpus()[0]?.model.trim() ?? 'this machine'}, whose speed probe measured it ${slowness.toFixed(2)}× slower than the reference machine (the median of the runs' probes); memory as the peak resident size less a run that computes nothing): ${outside} outside the bounds.

| experiment | runs | timed (≥ 1 s) | time, median | time, worst | sized (≥ 20 MB) | memory, median | memory, worst |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
const guide = path.join(root, 'docs', 'researchers.md');
const text = fs.readFileSync(guide, 'utf8');
const re = /(<!-- figures:estimates -->\n)[\s\S]*?(<!-- \/figures:estimates -->)/;
if (!re.test(text)) throw new Error('docs/researchers.md has no <!-- figures:estimates --> block');
fs.writeFileSync(guide, text.replace(re, `$1${table}\n$2`));
say(`docs/researchers.md: the estimates table (${outside} runs outside the bounds); every run in test-results/estimates.json`);
