// Where a repository's pages come from — the generator or the researcher's own page
// list — for every panel that takes pages (policies, allocate, learning).
import { csvDropBox } from './csv-file.js';

export const SOURCE_FIELD = { key: 'source', label: 'pages from', kind: 'select' };

const COLUMNS_HELP = `A header naming the columns, then one row per page: page, server (optional where pages are URLs: a page without one is counted against its URL's host; compared without case), change_rate (changes per day), weight (optional, default 1), frequency
  (optional, revisits per day: choose the allocation “given” to use it), observed (optional, 1 when every change of the page is announced,
  by a sitemap or a feed; harmonic staleness in the allocations and the learning view uses it, and the policies view refuses such a list).`;
const SERVERS_HELP = `Each server's limits, optional, on one of its rows or alike on each: crawl_delay (its robots.txt Crawl-delay, seconds),
  capacity (requests a second it serves before answering 429 or 503) and response_ms (its answer time when idle); a server without them
  takes the form's. A page's metadata, optional: key=value pairs as your crawler's seed list gives them, separated by | or tabs
  (Nutch's nutch.fetchInterval and nutch.fetchInterval.fixed, StormCrawler's scheduler.delay.mins and the keys of your file's custom intervals).`;
const LIMITS_HELP = 'Every bad row is reported with its line; nothing is dropped. Limits: 512 MB, 20 million pages.';

/** The page list's drop box; `servers`: its help also names the servers' columns. */
export function pageListBox(panel, controls, { servers = false } = {}) {
  csvDropBox(panel, controls, {
    key: 'pageList',
    label: 'Your page list (CSV <code>page,server,change_rate,weight</code>)',
    ...(servers
      ? { sampleLabel: 'Load the sample page list with hosts’ limits', sample: 'sample-hosts.csv', sampleName: 'sample-hosts.csv (synthetic, 3,000 pages on 600 hosts, their limits)' }
      : { sampleLabel: 'Load the sample page list', sample: 'sample-pages.csv', sampleName: 'sample-pages.csv (synthetic, 3,000 pages on 600 hosts)' }),
    empty: 'No page list loaded: the generator runs. Drop a CSV file here or choose one.',
    waiting: 'No page list loaded: “pages from” says your page list. Drop a CSV file here or choose one.',
    loaded: 'The source is now your page list. Rows are checked when the run starts.',
    help: [COLUMNS_HELP, servers ? SERVERS_HELP : '', LIMITS_HELP].filter(Boolean).join(' '),
    onLoad: (p) => p.form.set('source', 'page_list'),
    shape: 'list',
  });
}

/** The page list as a panel's file: its size in the form's checks, its text in the run. */
export const PAGE_LIST_FILE = {
  key: 'pageList',
  field: 'page_list',
  size: 'page_list_bytes',
  shape: 'page_list_shape',
  param: 'file',
  noun: 'page list',
  otherwise: 'the generated pages',
  when: (config) => config.source === 'page_list',
};

/** A panel spec's hooks: the drop box, and the list it holds. */
export const PAGE_LIST = { setup: (panel, controls) => pageListBox(panel, controls), files: [PAGE_LIST_FILE] };

/** What a result says of a page list whose rates are estimates (a history's, issue 47). */
export function estimatedNote(summary, spread = null) {
  const n = summary?.estimated_rates;
  if (!n) return '';
  const range = spread ? ` With each rate redrawn within its interval (${spread.redraws} times), OPT_POLITE's allocation keeps a freshness of ${spread.freshness[3][0].toFixed(3)} to ${spread.freshness[3][2].toFixed(3)} (uniform: ${spread.freshness[0][0].toFixed(3)} to ${spread.freshness[0][2].toFixed(3)}).` : ' Once a run ends, its chart\'s caption gives the freshness with each rate redrawn within its interval (20 redraws, lowest to highest).';
  return ` Its ${n.toLocaleString('en')} change rates are <strong>estimates</strong> with intervals (a history's page list): the results hold for the estimates.${range}`;
}
