// The "MERGE vs RANDOM ratios" view (spec §1.2–1.5): one page's factor against the
// closed forms, a repository over time against the POLITE bound, deployed crawlers,
// and bursts on the download channel.
import { ExperimentPanel } from '../ui/panel.js';

const fmt = (v, digits = 3) => (v === null || v === undefined ? '—' : v.toLocaleString('en', { maximumSignificantDigits: digits }));
const pct = (v) => `${(100 * v).toLocaleString('en', { maximumSignificantDigits: 3 })} %`;
const POLICIES = [
  ['merge', 'MERGE'],
  ['delayed', 'DELAYED'],
  ['random', 'RANDOM'],
  ['unpolite', 'UNPOLITE'],
];
const CRAWLERS = [
  ['nutch', 'Nutch adaptive'],
  ['stormcrawler', 'StormCrawler adaptive'],
  ['fixed', 'fixed 30 days'],
];
const ESTIMATORS = [
  ['expected', 'expected value (low variance)'],
  ['exact', 'exact Poisson changes'],
];
const LABEL = Object.fromEntries([...POLICIES, ...CRAWLERS]);

function duration(seconds) {
  const units = [
    [86400, 'days'],
    [3600, 'hours'],
    [60, 'minutes'],
  ];
  for (const [size, name] of units) if (seconds >= 2 * size) return `${fmt(seconds / size, 2)} ${name}`;
  return `${fmt(Math.max(seconds, 0.1), 2)} s`;
}

const perPage = {
  id: 'per-page',
  keyFields: ['c', 'other_pages'],
  name: 'page-factor',
  experiment: 'per_page',
  label: 'One page: simulated factor against Eq 5-2 and Eq 5-8',
  auto: true,
  fields: [
    { key: 'c', label: 'c = f_s/f', kind: 'number', help: 'server ÷ page frequency, ≥ 1' },
    { key: 'other_pages', label: 'other pages on the server', kind: 'integer', help: 'their frequencies are drawn at random' },
    { key: 'x_min', label: 'x from', kind: 'number', help: 'x = λ/f > 0' },
    { key: 'x_max', label: 'x to', kind: 'number' },
    { key: 'log_x', label: 'log scale for x', kind: 'bool' },
    { key: 'revisits', label: 'revisits per replication', kind: 'integer' },
    { key: 'replications', label: 'replications', kind: 'integer', help: 'for the 95 % intervals' },
    { key: 'estimator', label: 'freshness estimator', kind: 'select', options: ESTIMATORS },
    { key: 'seed', label: 'seed', kind: 'integer' },
  ],
  hover: (_core, x, y) => `x = ${fmt(x)}, A/A* = ${fmt(y, 4)}`,
};

function ratioRows(result) {
  const rows = [];
  for (const c of result.capacities) {
    for (const k of c.curves) {
      const diff = k.ratio_to_polite !== null && k.published_ratio !== null ? k.ratio_to_polite - k.published_ratio : null;
      rows.push(`<tr><td>${pct(c.share)}</td><td>${LABEL[k.policy]}${k.complete ? '' : ' (running)'}</td><td class="num">${fmt(k.converged, 4)}</td>
        <td class="num">${fmt(k.ratio_to_polite, 4)}</td><td class="num">${fmt(k.published_ratio, 3)}</td>
        <td class="num">${diff === null ? '—' : (diff >= 0 ? '+' : '') + diff.toFixed(3)}</td><td class="num">${k.violations.toLocaleString('en')}</td></tr>`);
    }
  }
  return rows.join('');
}

function crawlerRows(result) {
  return result.crawlers
    .map((c) => {
      const k = c.curve;
      return `<tr><td>${LABEL[k.policy]}${k.complete ? '' : ' (running)'}</td><td class="num">${fmt(k.bandwidth)} (${pct(k.bandwidth / result.max_rate)})</td>
        <td class="num">${fmt(k.mean, 3)}</td><td class="num">${fmt(k.converged, 3)}</td><td class="num">${fmt(c.merge_same_bandwidth?.converged, 3)}</td>
        <td class="num">${fmt(c.polite_bound_same_bandwidth, 3)}</td></tr>`;
    })
    .join('');
}

const repository = {
  id: 'repository',
  keyFields: ['capacities', 'politeness_seconds', 'horizon_days'],
  name: 'repository-freshness',
  experiment: 'policies',
  label: 'Repository freshness over time',
  auto: false,
  action: 'Simulate',
  presets: [
    { label: 'Classroom size', values: (core) => core.defaults('policies') },
    { label: 'WEBBASE scale', values: (core) => core.policies_webbase() },
  ],
  fields: [
    { key: 'repository.pages', label: 'pages', kind: 'integer', help: 'WEBBASE: 14,500,000' },
    { key: 'repository.servers', label: 'servers', kind: 'integer', help: 'WEBBASE: 5,462' },
    { key: 'repository.largest_server_share', label: 'largest server’s share of pages', kind: 'number' },
    { key: 'repository.rate_min', label: 'slowest change rate (per day)', kind: 'number' },
    { key: 'repository.rate_max', label: 'fastest change rate (per day)', kind: 'number' },
    { key: 'repository.rate_exponent', label: 'power-law exponent of rates', kind: 'number', help: 'density ∝ λ^−exponent' },
    { key: 'repository.never_changing', label: 'share of pages that never change', kind: 'number' },
    { key: 'politeness_seconds', label: 'politeness P (seconds)', kind: 'number' },
    { key: 'horizon_days', label: 'simulated days', kind: 'number' },
    { key: 'capacities', label: 'C as shares of the maximum', kind: 'list', help: 'the thesis: 0.01, 0.1, 0.9' },
    {
      key: 'allocation',
      label: 'allocation',
      kind: 'select',
      options: [
        ['opt_polite', 'OPT_POLITE'],
        ['opt_unpolite', 'OPT_UNPOLITE (ignores caps)'],
        ['uniform', 'uniform'],
        ['proportional', 'proportional to λ'],
      ],
    },
    { key: 'estimator', label: 'freshness estimator', kind: 'select', options: ESTIMATORS },
    { key: 'policies', label: 'policies', kind: 'choices', options: POLICIES },
    { key: 'crawlers', label: 'deployed crawlers (learn from fetches)', kind: 'choices', options: CRAWLERS },
    { key: 'seed', label: 'seed', kind: 'integer' },
  ],
  note(core, config) {
    try {
      const e = core.policies_estimate(config);
      // ~90 ns per request natively; the browser is about twice that (BENCHMARKS.md)
      return `Needs about ${Math.max(1, Math.round(e.bytes / 2 ** 20))} MB (${e.bytes_per_page} bytes per page) and simulates up to ${fmt(e.requests, 2)} requests: roughly ${duration(e.requests * 180e-9)} here.`;
    } catch {
      return '';
    }
  },
  hover: (_core, x, y) => `${fmt(x)}, freshness ${fmt(y, 4)}`,
  details(result, element, final) {
    const s = result.repository;
    element.innerHTML = `
      <p class="warning">The data are <strong>synthetic</strong>: WEBBASE is not public. This repository has ${s.pages.toLocaleString('en')} pages on
        ${s.servers.toLocaleString('en')} servers (largest ${s.largest_server.toLocaleString('en')}, median ${s.median_server.toLocaleString('en')};
        the top 1 % of servers hold ${pct(s.top_percent_share)} of the pages), ${pct(s.never_changing_share)} never change, and the others change
        ${fmt(s.mean_rate)} times a day on average.</p>
      <table class="proof"><caption>Freshness over the last quarter of the horizon and its ratio to the POLITE bound${final ? '' : ' (so far)'}</caption>
        <thead><tr><th scope="col">C</th><th scope="col">policy</th><th scope="col">freshness</th><th scope="col">ratio</th><th scope="col">thesis</th><th scope="col">difference</th><th scope="col">politeness violations</th></tr></thead>
        <tbody>${ratioRows(result)}</tbody></table>
      <p class="fineprint">On this synthetic repository MERGE stays within a fraction of a percent of the POLITE bound, where the thesis reports 0.970–0.977
        on WEBBASE, and RANDOM loses less than the thesis's 8–19 %. Here nearly every page shares its server with many others (c = f<sub>s</sub>/f ≫ 1),
        where MERGE's visits are almost equally spaced; the thesis's losses suggest WEBBASE weighs more pages with small c or with λ/f near 1.7, the worst
        case of both factors. The OPT allocations satisfy their optimality conditions to ${Math.max(...result.capacities.map((c) => (c.allocation.kkt ? Math.max(c.allocation.kkt.stationarity, c.allocation.kkt.excluded, c.allocation.kkt.total, c.allocation.kkt.cap_excess, c.allocation.kkt.slackness) : 0)), 0).toExponential(1)} (worst relative residual).</p>
      ${
        result.crawlers.length
          ? `<table class="proof"><caption>Deployed crawlers from a cold start (every page stale and due), against MERGE with OPT_POLITE at the same bandwidth</caption>
        <thead><tr><th scope="col">schedule</th><th scope="col">requests per day</th><th scope="col">whole run</th><th scope="col">converged</th><th scope="col">MERGE, same bandwidth</th><th scope="col">POLITE bound</th></tr></thead>
        <tbody>${crawlerRows(result)}</tbody></table>
        <p class="fineprint">The crawlers learn from what each fetch reveals (changed or not) and keep politeness with a per-server queue. Readings of their
        rules are stated in the source (src/policy/adaptive.rs); their freshness is measured with the exact estimator.</p>`
          : ''
      }`;
  },
};

const channel = {
  id: 'channel',
  keyFields: ['capacity', 'window_requests'],
  name: 'channel-windows',
  experiment: 'channel',
  label: 'Requests per window against Eq 5-11',
  auto: true,
  fields: [
    { key: 'capacity', label: 'C as a share of the maximum', kind: 'number' },
    { key: 'window_requests', label: 'expected requests per window', kind: 'number' },
    { key: 'windows', label: 'windows', kind: 'integer' },
    { key: 'repository.pages', label: 'pages', kind: 'integer' },
    { key: 'repository.servers', label: 'servers', kind: 'integer' },
    { key: 'politeness_seconds', label: 'politeness P (seconds)', kind: 'number' },
    { key: 'seed', label: 'seed', kind: 'integer' },
  ],
  hover: (_core, x, y) => `x = ${fmt(x)}, share ${fmt(y, 3)}`,
};

export function policiesView(root, core, client, state) {
  for (const spec of [perPage, repository, channel]) {
    new ExperimentPanel(root.querySelector(`#${spec.id}`), spec, core, client, state);
  }
}
