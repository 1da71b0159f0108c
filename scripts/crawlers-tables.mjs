// `npm run crawlers-tables`: the crawlers experiment's measured tables (issue 46), from
// the CLI's `--json`, on the classroom repository (the crawlers command's defaults):
// - NUTCH-1564: Nutch's adaptive schedule with the issue's own settings
//   (www/samples/nutch-1564.xml) and a daily crawl cycle, before and after the fix;
// - each crawler's shipped defaults, the tuned configuration the search finds for it
//   (scoring freshness once settled, as the table shows it) and
//   MERGE on OPT_POLITE at its bandwidth, on servers without a limit and on servers of
//   0.05 requests a second answering in 200 ms (429 with Retry-After), on the classroom
//   repository and a WEBBASE-like one (the thesis's shape at 1/100 of its pages), with
//   the gap to MERGE split by cause.
// Writes the tables into README.md (<!-- figures:nutch-1564 -->) and
// docs/crawler-engineers.md (<!-- figures:nutch-1564 -->, <!-- figures:crawlers -->),
// and the figures the page shows into www/views/crawlers-results.json.
// About 30 minutes on this 2-core machine (28 on 2026-12-05), most of it StormCrawler's tuning on the
// WEBBASE-like pages (a daily schedule: 53 million requests a run).
import fs from 'node:fs';
import path from 'node:path';
import { root, run, say, writeSection } from './shell.mjs';

const cli = path.join(root, 'target', 'release', 'freshlab');
say('building the release CLI (cargo build --release)…');
run('cargo', ['build', '--release', '--bin', 'freshlab']);

/** The CLI's brief JSON of a crawlers run. */
function crawlers(args) {
  say(`freshlab crawlers ${args.join(' ')}`);
  const started = Date.now();
  const out = run(cli, ['crawlers', ...args, '--json', '--quiet'], { capture: true });
  return { ...JSON.parse(out.stdout), seconds: (Date.now() - started) / 1000 };
}

const fmt = (x, digits = 3) => x.toFixed(digits);
const thousands = (n) => Math.round(n).toLocaleString('en-US');
const pct = (part, whole) => `${(whole ? (100 * part) / whole : 0).toFixed(1)} %`;

// NUTCH-1564, before and after
const sample = path.join(root, 'www', 'samples', 'nutch-1564.xml');
const nutch1564 = ['fixed', 'before'].map((version) => {
  const r = crawlers(['--crawler-config', sample, '--nutch-1564', version, '--nutch-cycle-hours', '24']);
  const [crawler, merge] = r.runs;
  return {
    version,
    requests: crawler.requests,
    unchanged: crawler.unchanged_fetches,
    freshness: crawler.freshness_last_quarter,
    merge: merge.freshness_last_quarter,
  };
});
const [after, before] = nutch1564;
const nutchTable = [
  '<!-- figures:nutch-1564 -->',
  '| Nutch AdaptiveFetchSchedule (NUTCH-1564\'s settings, daily cycle, classroom, 365 days) | requests | fetches of unchanged pages | freshness, last quarter | MERGE at the same bandwidth |',
  '|---|---:|---:|---:|---:|',
  ...nutch1564.map(
    (r) =>
      `| ${r.version === 'fixed' ? 'with the fix (January 2026)' : 'before the fix'} | ${thousands(r.requests)} | ${thousands(r.unchanged)} (${pct(r.unchanged, r.requests)}) | ${fmt(r.freshness)} | ${fmt(r.merge)} |`,
  ),
  '',
  `Written by \`npm run crawlers-tables\` (\`freshlab crawlers --crawler-config www/samples/nutch-1564.xml --nutch-1564 fixed|before --nutch-cycle-hours 24\`). ` +
    `Before the fix the crawl made ${thousands(before.requests - after.requests)} more requests (${pct(before.requests - after.requests, after.requests)} more), ` +
    `${thousands(before.unchanged - after.unchanged)} more fetches of unchanged pages, for a freshness ${before.freshness >= after.freshness ? 'higher' : 'lower'} by ${fmt(Math.abs(before.freshness - after.freshness), 4)}. ` +
    'Synthetic pages (the classroom generator), not a real crawl; the file sets no generate.topN, so every page due is fetched in its cycle.',
  '<!-- /figures:nutch-1564 -->',
].join('\n');

// each crawler shipped and tuned, without and with servers that push back
const servers = [
  ['no limit', []],
  ['0.05 requests/s, 200 ms', ['--server-capacity', '0.05', '--response-ms', '200']],
];
// the WEBBASE-like repository: the thesis's 5,462 servers and its top share (0.55 of the
// pages on the largest 1 %), at 1/100 of its 14.5 million pages
const repositories = [
  ['classroom', []],
  ['WEBBASE-like', ['--repository.pages', '145000', '--repository.servers', '5462', '--repository.top-share', '0.55']],
];
const rows = [];
for (const [repository, pages] of repositories) {
  for (const [limit, extra] of servers) {
    for (const crawler of ['nutch', 'stormcrawler', 'heritrix', 'scrapy']) {
      const r = crawlers(['--crawler', crawler, '--tune', '--tune-for', 'settled', ...pages, ...extra]);
      const [shipped, merge, tuned] = r.runs;
      rows.push({ repository, limit, crawler, shipped, merge, tuned: tuned ?? null, search: r.tuned, changes: r.tuned?.changes ?? [], gap: r.gap, seconds: r.seconds });
    }
  }
}
const points = (x) => (100 * x).toFixed(1);
const split = (g) => (g ? `${points(g.total)} = ${g.limits === undefined || g.limits === null ? '' : `${points(g.limits)} + `}${points(g.revisit)}` : '—');
const cell = (run) => `${fmt(run.freshness_last_quarter)} · ${thousands(run.requests)} · ${pct(run.unchanged_fetches, run.requests)} · ${thousands(run.refused)}`;
/** The tuned run's cell, or what the search tried when nothing beat the shipped file. */
const tunedCell = (r) => {
  if (r.tuned) return cell(r.tuned);
  if (!r.search?.candidates) return 'nothing to try';
  const freshest = r.search.freshest_freshness == null ? '' : `; the freshest ${fmt(r.search.freshest_freshness)} · ${thousands(r.search.freshest_requests)}`;
  return `nothing better in ${r.search.candidates} candidates${freshest}`;
};
const crawlersTable = [
  '<!-- figures:crawlers -->',
  'Each cell: freshness over the last quarter · requests · fetches of unchanged pages · refused (429).',
  '',
  '| pages | servers | crawler (shipped defaults) | shipped | tuned (no more requests) | MERGE at the shipped bandwidth | gap to MERGE, points: limits + revisit rule | settings the tuning changed | seconds |',
  '|---|---|---|---|---|---|---:|---|---:|',
  ...rows.map(
    (r) =>
      `| ${r.repository} | ${r.limit} | ${r.crawler} | ${cell(r.shipped)} | ${tunedCell(r)} | ${cell(r.merge)} | ${split(r.gap)} | ${r.changes.map((c) => `\`${c.name}\` ${c.from || 'unset'} → ${c.to}`).join('; ') || '—'} | ${r.seconds.toFixed(1)} |`,
  ),
  '',
  'Written by `npm run crawlers-tables` (`freshlab crawlers --crawler C --tune --tune-for settled [--server-capacity 0.05 --response-ms 200] [WEBBASE-like] --json`): the classroom ' +
    'repository (10,000 generated pages on 1,000 servers) and a WEBBASE-like one (`--repository.pages 145000 --repository.servers 5462 --repository.top-share 0.55`: ' +
    'the thesis\'s servers and top share at 1/100 of its pages; synthetic, not WEBBASE), 365 days. The gap is the shipped crawler\'s, over the last quarter, split by ' +
    'running it again on servers without limits (no batch cycle is set here). Seconds: the whole command (the crawler, MERGE, the split, the search and the tuned ' +
    'file\'s run) on this machine. The tuning scores what the table shows, freshness once settled (the last quarter), on no more requests than the shipped ' +
    'file over the whole run. Heritrix (its shipped profile reschedules nothing) and Scrapy recrawl every 30 days (the setting beside their file): on servers ' +
    'with no limit the tuning has nothing to try (every page revisited alike, an interval the budget fixes, and it never shortens the gap between requests).',
  '<!-- /figures:crawlers -->',
].join('\n');

writeSection(path.join(root, 'README.md'), 'figures:nutch-1564', nutchTable);
const guide = path.join(root, 'docs', 'crawler-engineers.md');
writeSection(guide, 'figures:nutch-1564', nutchTable);
writeSection(guide, 'figures:crawlers', crawlersTable);
fs.writeFileSync(path.join(root, 'www', 'views', 'crawlers-results.json'), `${JSON.stringify({ nutch1564 }, null, 1)}\n`);
say('README.md and docs/crawler-engineers.md: the NUTCH-1564 and crawlers tables; www/views/crawlers-results.json: the page\'s figures');
