// Writes www/samples/sample-pages.csv: a small synthetic page list in the format the
// policies view and `freshlab allocate` import (page,server,change_rate,weight), and
// www/samples/sample-hosts.csv: the same pages with each host's limits (crawl_delay,
// capacity, response_ms on its front page's row) for the crawlers view. The numbers are
// invented (seeded, reproducible), not measured on any real site.
// Usage: node scripts/sample-pages.mjs
import fs from 'node:fs';
import path from 'node:path';
import { root } from './shell.mjs';
import { seeded } from './seeded.mjs';


const random = seeded(2026);
const HOSTS = 600;
const PAGES = 3000;
// hosts by rank k hold ∝ k^-1.3 pages (at least one): most pages on a few hosts
const raw = Array.from({ length: HOSTS }, (_, k) => (k + 1) ** -1.3);
const scale = (PAGES - HOSTS) / raw.reduce((a, b) => a + b, 0);
const sizes = raw.map((r) => 1 + Math.floor(r * scale));
sizes[0] += PAGES - sizes.reduce((a, b) => a + b, 0);
const lines = ['page,server,change_rate,weight'];
const rows = [];
sizes.forEach((n, h) => {
  const host = `site${h + 1}.example`;
  for (let p = 0; p < n; p++) {
    // change rates: density ∝ λ^-1.5 on [1/365, 1] per day; one page in ten never changes
    const u = random();
    const rate = random() < 0.1 ? 0 : 1 / (1 / Math.sqrt(1 / 365) - u * (1 / Math.sqrt(1 / 365) - 1)) ** 2;
    const weight = p === 0 ? 5 : random() < 0.1 ? 2 : 1; // a host's front page weighs more
    lines.push(`https://${host}/${p === 0 ? '' : `page/${p}`},${host},${rate.toPrecision(4)},${weight}`);
    rows.push({ host: h, front: p === 0 });
  }
});
fs.writeFileSync(path.join(root, 'www', 'samples', 'sample-pages.csv'), `${lines.join('\n')}\n`);
console.log(`wrote ${lines.length - 1} pages on ${HOSTS} hosts to www/samples/sample-pages.csv`);

// The hosts' limits, from their own stream (sample-pages.csv stays as it was): the five
// largest serve 0.05 to 0.5 requests a second; one host in ten asks a Crawl-delay of
// 10 s, one in fifty 120 s (over Nutch's and StormCrawler's 30 s cap: they skip it);
// each answers in 50 to 800 ms when idle.
const limits = seeded(46);
const hostLimits = Array.from({ length: HOSTS }, (_, h) => {
  const crawlDelay = limits() < 0.02 ? 120 : limits() < 0.1 ? 10 : 0;
  const capacity = h < 5 ? [0.05, 0.1, 0.2, 0.3, 0.5][h] : '';
  return [crawlDelay || '', capacity, Math.round(50 + 750 * limits())];
});
const hosts = ['page,server,change_rate,weight,crawl_delay,capacity,response_ms'];
rows.forEach(({ host, front }, i) => hosts.push(`${lines[i + 1]},${front ? hostLimits[host].join(',') : ',,'}`));
fs.writeFileSync(path.join(root, 'www', 'samples', 'sample-hosts.csv'), `${hosts.join('\n')}\n`);
console.log(`wrote the same pages with their hosts' limits to www/samples/sample-hosts.csv`);
