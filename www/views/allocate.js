// The four allocations of a page list or the generator's pages (thesis §4.3–4.4; Cho &
// Garcia-Molina 2000).
import { number, integer } from '../ui/format.js';
import { PAGE_LIST, estimatedNote } from '../ui/page-list.js';

function worst(kkt) {
  return kkt ? Math.max(kkt.stationarity, kkt.excluded, kkt.total, kkt.cap_excess, kkt.slackness).toExponential(1) : '—';
}

export default {
  id: 'allocate',
  group: 'policies',
  title: 'Allocations, page by page',
  card: "How often to revisit each page: uniform, proportional and the two optima — on your crawler's own page list.",
  source: 'thesis §4.3–4.4; Cho & Garcia-Molina 2000',
  lede: `<p>How often to revisit each page for a total of C requests a day: uniform, proportional to the change rate, and the two optima,
    without and with the per-server caps 1/P. Load your own page list to allocate your crawler's bandwidth; the CSV export gives every
    page's frequency. The textbook case — five pages changing 1 to 5 times a day, synchronised 5 times a day — gives 1.15, 1.36, 1.35, 1.14
    and 0 (the fastest page is not worth revisiting), as in Cho &amp; Garcia-Molina's table.</p>`,
  panels: [
    {
      id: 'allocate',
      heading: 'The four allocations, page by page',
      keyFields: ['capacity', 'politeness_seconds'],
      auto: true,
      fields: [
        'source', 'capacity', 'politeness_seconds', 'objective', 'observed_share', 'repository.pages', 'repository.servers',
        'repository.top_share', 'seed',
      ],
      ...PAGE_LIST,
      hover: (_core, x, y) => `λ = ${number(x)}, f = ${number(y, 4)}`,
      details(result, element, _phase, label) {
        const objective = result.config.objective;
        const poisson = objective !== 'freshness';
        const harmonic = objective === 'harmonic';
        const observed = result.observed?.filter(Boolean).length ?? 0;
        const row = (name, a) =>
          `<tr><td>${name}</td><td class="num">${number(a.freshness, 4)}</td>${harmonic ? `<td class="num">${number(a.cost, 4)}</td>` : ''}${poisson ? `<td class="num">${integer(a.starved)}</td>` : ''}${observed ? `<td class="num">${number(100 * a.observed_crawled, 3)} %</td>` : ''}<td class="num">${number(a.report.total, 4)}</td><td class="num">${integer(a.capped.servers)}</td>
            <td class="num">${integer(a.report.servers_over_cap)}</td><td class="num">${a.report.kkt ? a.report.kkt.multiplier.toExponential(3) : '—'}</td>
            <td class="num">${worst(a.report.kkt)}</td></tr>`;
        const n = integer(result.change_rates.length);
        const source = result.pages?.length
          ? `Your page list: ${n} pages on ${integer(result.repository.servers)} servers.${estimatedNote(result.repository, result.spread)}`
          : `Generated (synthetic): ${n} pages on ${integer(result.repository.servers)} servers.`;
        const seen = observed
          ? ` ${integer(observed)} of them have every change observed: the optima crawl each on a change with probability f/λ, with the same multipliers as the others (${
              harmonic
                ? 'Kolobov et al. 2019, Algorithm 2'
                : 'such a page is fresh with probability f/λ, linear in f: the optima crawl every change of the pages worth most per change, w/λ, and none of the least'
            }).`
          : '';
        element.innerHTML = `<p>${source}${seen}</p><table class="proof"><caption>${
          poisson
            ? `Freshness Σ w f/(λ + f) / Σ w of each allocation (Poisson crawls${observed ? '; a page whose changes are observed is fresh with probability min(1, f/λ)' : ''}); the optima are those of ${label('objective', objective)}`
            : `Freshness bound Σ w A*(f) / Σ w of each allocation (Lemma 4.2 page by page${observed ? '; a page whose changes are observed: min(1, f/λ)' : ''})`
        }; the CSV export has every page's frequency</caption>
          <thead><tr><th scope="col">allocation</th><th scope="col">freshness</th>${harmonic ? '<th scope="col">harmonic staleness a day</th>' : ''}${poisson ? '<th scope="col">changing pages never crawled</th>' : ''}${observed ? '<th scope="col">observed changes crawled</th>' : ''}<th scope="col">requests a day</th><th scope="col">capped servers</th><th scope="col">servers over the cap</th><th scope="col">multiplier μ</th><th scope="col">worst KKT residual</th></tr></thead>
          <tbody>${row('uniform', result.uniform)}${row('proportional to λ', result.proportional)}${row('OPT_UNPOLITE', result.opt_unpolite)}${row('OPT_POLITE', result.opt_polite)}</tbody></table>`;
      },
    },
  ],
};
