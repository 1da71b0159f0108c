// Form fields several views share, written once.

/** How a simulated run counts freshness (spec §1.2): the expected fresh time of each
 * interval between visits, or each page's Poisson changes drawn one by one. */
export const ESTIMATOR_FIELD = { key: 'estimator', label: 'freshness estimator', kind: 'select' };

/** The seed of every random stream of a run (same seed, same numbers). */
export const SEED_FIELD = { key: 'seed', label: 'seed', kind: 'integer' };

/** P where 0 turns politeness off. */
export const POLITENESS_OR_NONE_FIELD = { key: 'politeness_seconds', label: 'politeness P (seconds; 0: none)', kind: 'number' };

/** The share of generated pages whose every change is announced (harmonic staleness). */
export const OBSERVED_SHARE_FIELD = {
  key: 'observed_share',
  label: 'share of pages with every change observed',
  kind: 'number',
  help: 'generated pages whose changes a sitemap or feed announces: each is crawled on a change with probability f/λ, as in LambdaCrawl; a page list says which in its observed column',
};

/** The size of the synthetic repository (used when the pages come from the generator). */
export const REPOSITORY_SIZE_FIELDS = [
  { key: 'repository.pages', label: 'pages (generator)', kind: 'integer', help: 'WEBBASE: 14,500,000' },
  { key: 'repository.servers', label: 'servers (generator)', kind: 'integer', help: 'WEBBASE: 5,462' },
];

/** c = f_s/f and the range of x = λ/f of the factor charts (ch. 5). */
export const FACTOR_RANGE_FIELDS = [
  { key: 'c', label: 'c = f_s/f', kind: 'number', help: 'server ÷ page frequency, ≥ 1' },
  { key: 'x_min', label: 'x from', kind: 'number', help: 'x = λ/f > 0' },
  { key: 'x_max', label: 'x to', kind: 'number' },
  { key: 'log_x', label: 'log scale for x', kind: 'bool' },
];
