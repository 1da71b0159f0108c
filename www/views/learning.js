// Learning to crawl: crawlers that do not know the change rates (Cho & Garcia-Molina
// 2003; Azar et al. 2018; Kolobov et al. 2019; Upadhyay et al. 2020) beside the
// thesis's MERGE and the oracle, under politeness.
import { number, integer } from '../ui/format.js';
import { PAGE_LIST } from '../ui/page-list.js';

/** `label(field, value)`: the labels the core gives the policies (core.choices). */
function runsTable(result, final, label) {
  const rows = result.policies
    .map((c) => {
      const last = c.rate_errors.length ? number(c.rate_errors[c.rate_errors.length - 1], 3) : '—';
      const share = c.requests ? (100 * c.violations) / c.requests : 0;
      return `<tr><th scope="row">${label('policies', c.policy) ?? c.policy}</th><td class="num">${number(c.mean_freshness, 4)}</td>
        <td class="num">${number(c.mean_harmonic, 4)}</td><td class="num">${integer(c.requests)}</td><td class="num">${number(c.requests / result.config.horizon_days, 3)}</td><td class="num">${number(share, 3)} %</td>
        <td class="num">${last}</td><td class="num">${c.interval_scale == null ? '—' : `× ${number(c.interval_scale, 3)}${c.tuning_runs ? ` (${c.tuning_runs} run${c.tuning_runs === 1 ? '' : 's'})` : ''}${Math.abs(c.requests / (result.config.capacity * result.config.horizon_days) - 1) > 0.01 ? ' (cannot spend the bandwidth)' : ''}`}</td></tr>`;
    })
    .join('');
  const pages = result.repository.pages;
  const spaced = result.spaced;
  const source = result.config.source === 'page_list' ? `your page list: ${integer(pages)} pages${result.repository.estimated_rates ? ' (rates estimated)' : ''}` : `synthetic pages (the WEBBASE-like generator): ${integer(pages)}`;
  const heard = result.observed_pages
    ? ` ${integer(result.observed_pages)} pages announce every change (a sitemap, a feed): the oracle, LambdaLearnAndCrawl and explore-then-commit crawl each
      on a change with probability f/λ̂ from the rate they believe (the learners' from the changes announced so far, (N + 1)/(t + prior)), as in
      LambdaCrawl; uniform, MERGE and the deployed crawlers do not listen.`
    : '';
  return `<table class="proof"><caption>Each policy over the whole run${final ? '' : ' (so far)'}, on ${source} on ${integer(result.repository.servers)} servers</caption>
    <thead><tr><th scope="col">policy</th><th scope="col">freshness</th><th scope="col">harmonic staleness</th><th scope="col">requests</th><th scope="col">a day</th>
    <th scope="col">requests sooner than P</th><th scope="col">bandwidth misplaced at the last epoch</th><th scope="col">intervals</th></tr></thead><tbody>${rows}</tbody></table>
    <p class="fineprint">Freshness and staleness are weighted by importance (the page list's <code>weight</code>). “Bandwidth misplaced” is
    Σ|f − f*| / (Σf + Σf*) against the oracle that crawls the same way. ${
      spaced
        ? 'Every policy but Nutch and StormCrawler crawls equally spaced by MERGE'
        : 'Poisson crawls keep politeness on average only (Σ f ≤ 1/P per server), so some requests come sooner than P; MERGE keeps it exactly'
    }${
      result.observed_pages
        ? spaced
          ? '; a crawl on an announced change waits for its server’s next request (every 1/f_s), so P holds on every gap'
          : '; a crawl on an announced change comes when the change does, and, like the Poisson crawls, keeps politeness on average only'
        : ''
    }. Nutch and StormCrawler run their shipped adaptive
    rules from a cold start, every time constant of the rule (first, shortest and longest interval) multiplied by the scale in the last column,
    found by re-running them on the same changes until they spend the others' ${number(result.config.capacity)} requests a day to within 1 %, as an
    operator would tune them (at most 12 runs, scales from 0.05 to 1,000; where none spends it, their requests a day say what they spent).
    Nutch settles each page where about 60 % of its fetches find a change, whatever the scale: the scale moves its start and its bounds. Every page is fetched at time 0; the changes are the same for
    every policy (one random stream per page). Learners start from a prior of one changed and one unchanged interval of ${number(result.config.prior_days)} days.${heard}</p>`;
}

export default {
  id: 'learning',
  group: 'learning',
  title: 'Learning to crawl: unknown change rates',
  card: "A real crawler never knows how often pages change: learn the rates while crawling (LambdaCrawl, explore-then-commit, MERGE) and see what not knowing costs.",
  source: 'Cho & Garcia-Molina 2003; Azar et al. 2018; Kolobov et al. 2019; Upadhyay et al. 2020',
  lede: `<p>Every other view gives each policy the true change rates. A crawler sees only whether a page changed since its last visit. Here it
    estimates each page's rate from that (maximum likelihood, Cho &amp; Garcia-Molina) and re-solves its schedule every epoch:
    <strong>LambdaLearnAndCrawl</strong> (Kolobov et al.), <strong>explore-then-commit</strong> (Upadhyay et al.) and the thesis's
    <strong>MERGE</strong> on learned rates, against the oracles that know the rates, at the same bandwidth and under the per-server caps
    Σ f ≤ 1/P. The objective is the thesis's freshness (equally spaced crawls), binary freshness with Poisson crawls (fresh with probability
    f/(λ + f), Azar et al.) or harmonic staleness (a page pays H(k) = 1 + ½ + … + 1/k after k missed changes, at the rate ln(1 + λ/f),
    Kolobov et al.); with caps, the optimum is solved exactly with one multiplier per server inside the global one (the problem of Kolobov et al.,
    SIGIR 2019). Pages whose every change a sitemap or feed announces (<em>share of pages with every change observed</em>, or a page
    list's <code>observed</code> column) are crawled on a change by the oracle and the LambdaCrawl learners, as in
    Kolobov et al. The default pages are synthetic; load your own page list to see your crawler's loss.</p>`,
  panels: [
    {
      id: 'learning',
      heading: 'Freshness while learning the rates',
      keyFields: ['capacity', 'politeness_seconds', 'objective'],
      auto: false,
      action: 'Simulate',
      presets: [
        { label: 'Classroom pages', values: (core) => core.defaults('learning') },
        {
          label: 'The sample page list',
          // 3,000 pages on 600 hosts changing 148 times a day in all: a bandwidth about
          // that total makes the allocation matter
          values: (core) => ({ ...core.defaults('learning'), source: 'page_list', capacity: 150 }),
          then: (panel) => panel.samples.pageList(),
        },
      ],
      fields: [
        'source', 'capacity', 'politeness_seconds', 'objective', 'spacing', 'policies', 'horizon_days', 'epoch_days',
        'explore_days', 'prior_days', 'repository.pages', 'repository.servers', 'observed_share', 'estimator_visits',
        'estimator_runs', 'bins', 'seed',
      ],
      ...PAGE_LIST,
      estimate: true,
      hover: (_core, x, y) => `${number(x, 3)}: ${number(y, 4)}`,
      details: (result, element, phase, label) => (element.innerHTML = runsTable(result, phase === 'final', label)),
    },
  ],
};
