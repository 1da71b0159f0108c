// Non-Poisson changes (thesis ch. 6; spec §2): MERGE with Wolf et al.'s allocation,
// MERGE2, UNPOLITE, RANDOM and GREEDY on an imported trace or the bursty generator.
import { number as fmt } from '../ui/format.js';
import { csvDropBox } from '../ui/csv-file.js';

function traceControls(panel, controls) {
  csvDropBox(panel, controls, {
    key: 'trace',
    label: 'Change trace (CSV <code>page,timestamp</code>)',
    sampleLabel: 'Load the sample trace',
    sample: 'sample-trace.csv',
    sampleName: 'sample-trace.csv (synthetic, 20 articles)',
    empty: 'No trace loaded: the synthetic generator runs. Drop a CSV file here or choose one.',
    waiting: 'No trace loaded: the source says an imported trace. Drop a CSV file here or choose one.',
    loaded: 'The source is now the imported trace: Simulate to replay it.',
    help: `One row per change: page name (quoted if it holds a comma), then ISO-8601 (UTC unless a zone is given) or Unix seconds; a header
      line is optional. Every bad row is reported with its line; nothing is dropped or reordered. Limits: 512 MB, 20 million rows, 100,000 pages.`,
    onLoad: (p) => p.form.set('source', 'trace'),
    shape: 'trace',
  });
}

function gapsTable(result, final) {
  const heads = result.config.fractions.map((f) => `<th scope="col">${fmt(100 * f)} %</th>`).join('');
  const rows = result.gaps
    .map((g) => `<tr><th scope="row">${g.name}</th><td>${g.published}</td>${g.measured.map((m) => `<td class="num">${m === null ? '—' : fmt(m, 3)}</td>`).join('')}</tr>`)
    .join('');
  const t = result.trace;
  const kkt = Math.max(...result.kkt);
  const unpolite = result.points.filter((p) => p.policy === 'unpolite');
  return `
    <table class="proof"><caption>Gaps in percentage points of freshness: the thesis beside Freshlab${final ? '' : ' (so far)'}</caption>
      <thead><tr><th scope="col">gap</th><th scope="col">thesis</th>${heads}</tr></thead><tbody>${rows}</tbody></table>
    <p>${fmt(t.articles, 6)} articles, ${fmt(t.changes, 9)} changes over ${fmt(t.days, 4)} days from ${t.start.slice(0, 10)}${t.blank_lines ? `, ${t.blank_lines} blank lines skipped` : ''}.
      ${t.without_histogram ? `${t.without_histogram} articles had no interval and were given one as long as the period. ` : ''}${
        t.without_training_histogram ? `${t.without_training_histogram} articles had no interval in MERGE2's first ${fmt(result.config.training_days)} days and were given one that long. ` : ''
      }Wolf et al.'s allocation meets its optimality conditions to ${kkt.toExponential(1)}.
      ${unpolite.length ? `UNPOLITE broke politeness on ${unpolite.map((p) => `${fmt(100 * p.violations / Math.max(1, p.requests), 3)} %`).join(', ')} of its requests.` : ''}
      ${result.renewal_gap !== null ? `The renewal equation's grid ends within ${fmt(result.renewal_gap, 2)} renewals of its asymptote (worst article).` : ''}</p>
    <p class="fineprint">Readings: histograms have 10 bins from the shortest to the longest interval, each wider than the last by a constant
      factor; Pr[changed] is conditioned on no change known at the last fetch; an article never fetched is worth E[X²]/(2E[X]); one unchanged for
      longer than its histogram allows is ${result.config.overdue === 'memoryless' ? 'treated as memoryless from its last fetch' : 'treated as surely stale'}
      (option “overdue article”). The thesis's data are 10,000 real Wikipedia articles over 2007; ${
        result.config.source === 'generator' ? 'these are synthetic (lognormal renewal intervals), so gaps may differ.' : 'this run replays the trace you loaded.'
      }</p>`;
}

const panel = {
  id: 'bursty',
  heading: 'Freshness against request rate',
  intro: `<p>One server, requests every P/rate; every article starts stale. The default keeps the thesis's requests per article (10,000 articles at
    15 s) with 200 articles at 750 s over a quarter, so that GREEDY answers in seconds.</p>`,
  keyFields: ['politeness_seconds', 'policies', 'generator.articles'],
  auto: false,
  action: 'Simulate',
  display: ['article_rate'],
  fields: [
    'source', 'generator.articles', 'generator.days', 'generator.rate_min', 'generator.rate_max',
    'generator.min_changes_per_year', 'generator.burstiness', 'politeness_seconds', 'fractions', 'policies', 'greedy_samples',
    'renewal_steps', 'overdue', 'training_days', 'article', 'article_rate', 'seed',
  ],
  presets: [
    {
      label: 'Thesis scale (10,000 articles, 15 s, a year)',
      values: (core) => core.preset('bursty', 'thesis'),
    },
  ],
  setup: traceControls,
  files: [{ key: 'trace', field: 'trace', size: 'trace_bytes', shape: 'trace_shape', param: 'file', noun: 'trace', otherwise: 'the synthetic articles', when: (config) => config.source === 'trace' }],
  estimate: true,
  details: (result, element, phase) => (element.innerHTML = gapsTable(result, phase === 'final')),
};

export default {
  id: 'bursty',
  group: 'bursty',
  title: 'Bursty changes: does knowing the last change help?',
  card: 'Articles that change in bursts: MERGE, MERGE2, RANDOM and GREEDY on your own change trace or a synthetic one.',
  source: 'thesis ch. 6, Fig 6.3',
  lede: `<p>Wikipedia articles change in bursts, so the Poisson theory of the other views does not apply. The thesis (ch. 6) models each
    article's time between changes with a 10-bin histogram, allocates revisits with Wolf et al.'s method, and pits MERGE against
    <strong>GREEDY</strong>, which at each request fetches the article with the largest expected gain given its last known change. Its 10,000
    articles' 2007 edit histories are not public: load your own trace (CSV of <code>page,timestamp</code> rows), the sample, or use the
    synthetic bursty generator — the data then differ from the thesis's, and so may the numbers.</p>`,
  panels: [panel],
};
