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
/** A bin's figures: interval coverage, median estimate ÷ true rate, share within a
 * factor 2, share flagged (NaN where the bin has no such pages). */
const statsOf = (pages) => {
  const bounded = pages.filter((p) => p.estimate.low != null || p.estimate.high != null);
  const covered = bounded.filter((p) => (p.estimate.low ?? 0) <= p.true_rate && p.true_rate <= (p.estimate.high ?? Infinity));
  const finite = pages.filter((p) => p.estimate.rate > 0);
  const flagged = pages.filter((p) => ['coarse', 'always_changed'].includes(p.estimate.status));
  const share = (a, b) => (b ? (100 * a) / b : NaN);
  return {
    pages: pages.length,
    coverage: share(covered.length, bounded.length),
    ratio: finite.length ? median(finite.map((p) => p.estimate.rate / p.true_rate)) : NaN,
    within2: share(finite.filter((p) => Math.abs(Math.log(p.estimate.rate / p.true_rate)) <= Math.LN2).length, finite.length),
    flagged: share(flagged.length, pages.length),
  };
};
const pct = (x) => (Number.isNaN(x) ? '—' : `${x.toFixed(1)} %`);
const rowOf = (label, s) => `| ${label} | ${s.pages} | ${pct(s.coverage)} | ${Number.isNaN(s.ratio) ? '—' : s.ratio.toFixed(3)} | ${pct(s.within2)} | ${pct(s.flagged)} |`;
/** The least and most of `xs` (NaNs left out), as "a–b" with `digits`. */
const span = (xs, digits) => {
  const kept = xs.filter((x) => !Number.isNaN(x));
  const [lo, hi] = [Math.min(...kept).toFixed(digits), Math.max(...kept).toFixed(digits)];
  return lo === hi ? lo : `${lo}–${hi}`;
};

const lines = [
  '<!-- figures:history-accuracy -->',
  '| captures | pages in the bin | interval holds the true rate | median estimate ÷ true | within a factor 2 | flagged (too sparse, or changed at every capture) |',
  '|---|---:|---:|---:|---:|---:|',
];
const stats = {};
for (const captures of ['poisson', 'periodic', 'bursty']) {
  const out = path.join(dir, `${captures}.json`);
  say(`freshlab history --captures ${captures} ${args.join(' ')}`);
  const started = Date.now();
  run(cli, ['history', '--captures', captures, ...args, '--out', out, '--quiet'], { capture: true });
  const seconds = (Date.now() - started) / 1000;
  const { result } = JSON.parse(fs.readFileSync(out, 'utf8'));
  const pages = result.pages;
  lines.push(`| **${captures}** (all; ${seconds.toFixed(1)} s) | | | | | |`);
  const bins = (stats[captures] = { all: statsOf(pages) });
  lines.push(rowOf('all pages', bins.all));
  for (const [label, lo, hi] of [['≤ 5 captures', 0, 5], ['6–20 captures', 6, 20], ['21–100 captures', 21, 100], ['over 100 captures', 101, Infinity]]) {
    lines.push(rowOf(label, (bins[label] = statsOf(pages.filter((p) => p.estimate.observations + 1 >= lo && p.estimate.observations + 1 <= hi)))));
  }
  for (const [label, lo, hi] of [['rate × spacing < 0.1', 0, 0.1], ['0.1–0.5', 0.1, 0.5], ['0.5–2', 0.5, 2], ['over 2 (faster than the captures)', 2, Infinity]]) {
    lines.push(rowOf(label, (bins[label] = statsOf(pages.filter((p) => p.true_rate * p.estimate.spacing_days >= lo && p.true_rate * p.estimate.spacing_days < hi)))));
  }
}
const laws = Object.values(stats);
lines.push(
  '',
  `Written by \`npm run history-tables\` (\`freshlab history --captures poisson|periodic|bursty ${args.join(' ')} --out FILE.json\`): ${PAGES.toLocaleString('en-US')} generated pages a row group, ` +
    'rates log-uniform on [1/200, 2] a day, each page captured for 365 days at a mean spacing log-uniform on [1, 60] days (bursty: visits at a fifth of that rate, five captures an hour apart). ' +
    'Coverage counts the pages given an interval or a one-sided bound (95 %); the median and factor-2 columns count pages with a finite positive estimate. ' +
    'Spacing is each page\'s typical interval between captures: the median weighted by length (half the observed time lies in intervals at most this long; in bursts, the gap between bursts).',
  '',
  // what the table shows, its figures from the table itself
  `What the table shows: the intervals hold the true rate for ${span(laws.map((l) => l.all.coverage), 1)} % of pages ` +
    `by capture law (${span(laws.map((l) => l['≤ 5 captures'].coverage), 1)} % at 5 captures or fewer, where the likelihood-ratio interval is conservative), ` +
    'so an interval can be trusted where an estimate cannot. ' +
    `From 21 captures on the median estimate is ${span(laws.flatMap((l) => [l['21–100 captures'].ratio, l['over 100 captures'].ratio]), 2)} times the true rate. ` +
    `With a handful of captures it is not: under Poisson captures the median estimate is ${stats.poisson['≤ 5 captures'].ratio.toFixed(2)} of the truth at 5 captures or fewer, ` +
    `and under bursty captures a page seen in one burst only (five captures an hour apart) gets a median estimate ${stats.bursty['≤ 5 captures'].ratio.toFixed(1)} times its rate — ` +
    `an hour seen changed says little about a rate per day — while its interval, hours to weeks wide, still holds the truth (${pct(stats.bursty['≤ 5 captures'].coverage)}). ` +
    `Pages changing faster than their captures (rate × spacing over 2) are flagged ${span(laws.map((l) => l['over 2 (faster than the captures)'].flagged), 1)} % of the time by capture law.`,
  '<!-- /figures:history-accuracy -->',
);
writeSection(path.join(root, 'docs', 'researchers.md'), 'figures:history-accuracy', lines.join('\n'));
fs.rmSync(dir, { recursive: true, force: true });
say('docs/researchers.md: the history accuracy table');
