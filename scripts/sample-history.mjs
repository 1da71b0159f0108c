// Writes the history view's samples (issue 47) with fixed seeds: www/samples/sample-captures.cdx,
// a CDX capture index of invented pages whose change rates are known (written beside it in
// sample-captures-rates.csv, so that an estimate can be compared with the truth), and
// www/samples/sample-revisions.xml, a MediaWiki dump's revisions of invented articles that
// are edited in bursts. Nothing in them was measured on a real site.
//   node scripts/sample-history.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seeded } from './seeded.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'www', 'samples');

const exponential = (u, rate) => -Math.log(1 - u()) / rate;
const start = Date.UTC(2025, 0, 1) / 1000;
const DAY = 86400;
const stamp = (s) => new Date(s * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
const iso = (s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

// --- captures: 300 pages on 30 hosts over a year
const u = seeded(47);
const lines = [' CDX N b a m s k r M S V g'];
const truth = ['page,server,true_rate'];
for (let h = 1; h <= 30; h += 1) {
  const host = `site${h}.example`;
  // each host captured about every 3 to 30 days
  const spacing = 3 + 27 * u();
  const pages = 1 + Math.floor(10 / h + 6 * u());
  for (let p = 0; p < pages; p += 1) {
    const url = p === 0 ? `http://${host}/` : `http://${host}/page${p}.html`;
    // rates log-uniform from 1/200 to 2 a day, one page in eight never changing
    const rate = u() < 0.125 ? 0 : Math.exp(Math.log(1 / 200) + u() * Math.log(400));
    truth.push(`${url},${host},${rate}`);
    let version = 0;
    let change = rate > 0 ? start + exponential(u, rate / DAY) : Infinity;
    let t = start + spacing * DAY * u();
    let last = null;
    while (t < start + 365 * DAY) {
      while (change <= t) {
        version += 1;
        change += exponential(u, rate / DAY);
      }
      const digest = `SHA${h}X${p}V${version}`.padEnd(32, 'Q');
      const key = `example,site${h})/${p === 0 ? '' : `page${p}.html`}`;
      const roll = u();
      if (roll < 0.03) lines.push(`${key} ${stamp(t)} ${url} text/html 404 - - - 512 0 crawl.warc.gz`);
      else if (roll < 0.05) lines.push(`${key} ${stamp(t)} ${url} text/html 301 ${digest.replace('SHA', 'RED')} http://${host}/moved - 300 0 crawl.warc.gz`);
      else if (digest === last && roll < 0.3) lines.push(`${key} ${stamp(t)} ${url} warc/revisit - ${digest} - - 400 0 crawl.warc.gz`);
      else lines.push(`${key} ${stamp(t)} ${url} text/html 200 ${digest} - - 9000 0 crawl.warc.gz`);
      if (roll >= 0.05) last = digest;
      t += exponential(u, 1 / (spacing * DAY));
    }
  }
}
// an index is sorted by key, then time
const [legend, ...records] = lines;
records.sort((a, b) => (a.split(' ')[0] < b.split(' ')[0] ? -1 : a.split(' ')[0] > b.split(' ')[0] ? 1 : a.split(' ')[1] < b.split(' ')[1] ? -1 : 1));
fs.writeFileSync(path.join(out, 'sample-captures.cdx'), `${[legend, ...records].join('\n')}\n`);
fs.writeFileSync(path.join(out, 'sample-captures-rates.csv'), `${truth.join('\n')}\n`);

// --- revisions: 15 articles edited in bursts over a quarter
const w = seeded(2007);
const titles = ['Global warming', 'Harry Potter', 'Wikipedia', 'Python (programming language)', 'Washington, D.C.', 'Jazz', 'Photosynthesis', 'Ada Lovelace', 'Mount Everest', 'Coffee', 'Olympic Games', 'Black hole', 'Printing press', 'Tango', 'Volcano'];
const xml = ['<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">', '  <siteinfo>', '    <sitename>Wikipedia</sitename>', '    <base>https://en.wikipedia.org/wiki/Main_Page</base>', '  </siteinfo>'];
let revid = 1000;
for (const [k, title] of titles.entries()) {
  xml.push('  <page>', `    <title>${title}</title>`, '    <ns>0</ns>', `    <id>${k + 1}</id>`);
  // bursts: sessions every few days, each a few edits minutes apart
  const sessionRate = 0.1 + 1.5 * w();
  let t = start + exponential(w, sessionRate / DAY);
  while (t < start + 91 * DAY) {
    const edits = 1 + Math.floor(6 * w() * w());
    let e = t;
    for (let j = 0; j < edits; j += 1) {
      revid += 1;
      xml.push('    <revision>', `      <id>${revid}</id>`, `      <timestamp>${iso(Math.floor(e))}</timestamp>`, '    </revision>');
      e += 60 + exponential(w, 1 / 600);
    }
    t += exponential(w, sessionRate / DAY);
  }
  xml.push('  </page>');
}
xml.push('</mediawiki>');
fs.writeFileSync(path.join(out, 'sample-revisions.xml'), `${xml.join('\n')}\n`);
console.log(`wrote ${records.length} captures and ${revid - 1000} revisions to www/samples`);
