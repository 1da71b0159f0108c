// The landing view: one live chart — politeness costing freshness, MERGE against RANDOM on
// a small repository, redrawn as you change it — and the way to every other view.
import { number } from '../ui/format.js';

export default {
  id: 'home',
  group: null,
  title: 'Freshlab',
  lede: `<p class="hero">A search engine must keep its copy of the web fresh with limited bandwidth, and may not ask the same server twice within
    P seconds. <strong>How much freshness does that politeness cost, and which revisit policy gets closest to the best possible?</strong>
    The chart runs in your browser: change P or the bandwidth and watch.</p>`,
  panels: [
    {
      id: 'home',
      heading: 'Politeness costs freshness: MERGE and RANDOM on 2,000 pages for a year',
      experiment: 'policies',
      auto: true,
      figures: 1,
      keyFields: ['politeness_seconds', 'capacities', 'horizon_days'],
      initial: (core) => ({
        ...core.defaults('policies'),
        repository: { ...core.defaults('policies').repository, pages: 2000, servers: 100 },
        horizon_days: 365,
        capacities: [0.1],
        policies: ['merge', 'random'],
        crawlers: [],
        bins: 60,
      }),
      fields: [
        { key: 'politeness_seconds', label: 'politeness P (seconds between two requests to a server)' },
        { key: 'capacities', label: 'bandwidth C (share of the most politeness allows)', help: 'e.g. 0.1; several: 0.01, 0.1, 0.9' },
        { key: 'horizon_days', label: 'days simulated' },
      ],
      more: { view: 'policies', text: 'The full experiment: six years, DELAYED, UNPOLITE, Nutch and StormCrawler, the thesis’s ratios' },
      hover: (_core, x, y) => `day ${number(x, 3)}: ${number(y, 4)} of the pages up to date`,
    },
  ],
};
