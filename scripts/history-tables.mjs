// `npm run history-tables`: how well the history experiment's estimates recover known
// change rates (issue 47), from the CLI's JSON export: pages with log-uniform rates
// (1/200 to 2 a day) captured for a year at Poisson, periodic or bursty times of mean
// spacing 1 to 60 days (`freshlab history --captures C --pages 20000 --out FILE.json`).
// Bias (median estimate ÷ true rate) and interval coverage, by captures per page and by
// true rate × typical capture spacing (the median interval weighted by length). Writes
// the table into docs/researchers.md (<!-- figures:history-accuracy -->). Seconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, run, say, writeSection } from './shell.mjs';

const cli = path.join(root, 'target', 'release', 'freshlab');
say('building the release CLI (cargo build --release)…');
run('cargo', ['build', '--release', '--bin', 'freshlab']);

const PAGES = 20000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-history-'));
const args = ['--pages', String(PAGES), '--servers', '200', '--rate-min', '0.005', '--rate-max', '2', '--spacing-min', '1', '--spacing-max', '60', '--seed', '47'];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};
const rowOf = (label, pages) => {
  const bounded = pages.filter((p) => p.estimate.low != null || p.estimate.high != null);
  const covered = bounded.filter((p) => (p.estimate.low ?? 0) <= p.true_rate && p.true_rate <= (p.estimate.high ?? Infinity));
  const finite = pages.filter((p) => p.estimate.rate > 0);
  const flagged = pages.filter((p) => ['coarse', 'always_changed'].includes(p.estimate.status));
  const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)} %` : '—');
  return `| ${label} | ${pages.length} | ${pct(covered.length, bounded.length)} | ${finite.length ? median(finite.map((p) => p.estimate.rate / p.true_rate)).toFixed(3) : '—'} | ${pct(finite.filter((p) => Math.abs(Math.log(p.estimate.rate / p.true_rate)) <= Math.LN2).length, finite.length)} | ${pct(flagged.length, pages.length)} |`;
};

const lines = [
  '<!-- figures:history-accuracy -->',
  '| captures | pages in the bin | interval holds the true rate | median estimate ÷ true | within a factor 2 | flagged (too sparse, or changed at every capture) |',
  '|---|---:|---:|---:|---:|---:|',
];
for (const captures of ['poisson', 'periodic', 'bursty']) {
  const out = path.join(dir, `${captures}.json`);
  say(`freshlab history --captures ${captures} ${args.join(' ')}`);
  const started = Date.now();
  run(cli, ['history', '--captures', captures, ...args, '--out', out, '--quiet'], { capture: true });
  const seconds = (Date.now() - started) / 1000;
  const { result } = JSON.parse(fs.readFileSync(out, 'utf8'));
  const pages = result.pages;
  lines.push(`| **${captures}** (all; ${seconds.toFixed(1)} s) | | | | | |`);
  lines.push(rowOf('all pages', pages));
  for (const [label, lo, hi] of [['≤ 5 captures', 0, 5], ['6–20 captures', 6, 20], ['21–100 captures', 21, 100], ['over 100 captures', 101, Infinity]]) {
    lines.push(rowOf(label, pages.filter((p) => p.estimate.observations + 1 >= lo && p.estimate.observations + 1 <= hi)));
  }
  for (const [label, lo, hi] of [['rate × spacing < 0.1', 0, 0.1], ['0.1–0.5', 0.1, 0.5], ['0.5–2', 0.5, 2], ['over 2 (faster than the captures)', 2, Infinity]]) {
    lines.push(rowOf(label, pages.filter((p) => p.true_rate * p.estimate.spacing_days >= lo && p.true_rate * p.estimate.spacing_days < hi)));
  }
}
lines.push(
  '',
  `Written by \`npm run history-tables\` (\`freshlab history --captures poisson|periodic|bursty ${args.join(' ')} --out FILE.json\`): ${PAGES.toLocaleString('en-US')} generated pages a row group, ` +
    'rates log-uniform on [1/200, 2] a day, each page captured for 365 days at a mean spacing log-uniform on [1, 60] days (bursty: visits at a fifth of that rate, five captures an hour apart). ' +
    'Coverage counts the pages given an interval or a one-sided bound (95 %); the median and factor-2 columns count pages with a finite positive estimate. ' +
    'Spacing is each page\'s typical interval between captures: the median weighted by length (half the observed time lies in intervals at most this long; in bursts, the gap between bursts).',
  '<!-- /figures:history-accuracy -->',
);
writeSection(path.join(root, 'docs', 'researchers.md'), 'figures:history-accuracy', lines.join('\n'));
fs.rmSync(dir, { recursive: true, force: true });
say('docs/researchers.md: the history accuracy table');
