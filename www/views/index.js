// Every view of the page, grouped by the source it reproduces. A new experiment's view
// is one module here and one line below.
import home from './home.js';
import levelSets from './level-sets.js';
import factorCurves from './factor-curves.js';
import bursts from './bursts.js';
import certify from './certify.js';
import perPage from './per-page.js';
import policies from './policies.js';
import allocate from './allocate.js';
import channel from './channel.js';
import bursty from './bursty.js';
import sensors from './sensors.js';
import partition from './partition.js';
import learning from './learning.js';
import crawlers from './crawlers.js';
import history from './history.js';

export const GROUPS = [
  { id: 'theory', label: 'Theory', source: 'thesis ch. 5' },
  { id: 'policies', label: 'Policies simulated', source: 'thesis §5.5' },
  { id: 'bursty', label: 'Bursty changes', source: 'thesis ch. 6' },
  { id: 'sensors', label: 'Robots vs sensors', source: 'Zemskov 2002' },
  { id: 'partition', label: 'Distributed crawling', source: 'Exposto 2008' },
  { id: 'learning', label: 'Real crawlers', source: 'Kolobov et al. 2019; Nutch, StormCrawler' },
];

/** One view per experiment, under the experiment's name (issue 45: one name per
 * experiment, the same in its folder, CLI command, embed id and view). */
const BY_EXPERIMENT = new Map([levelSets, factorCurves, bursts, certify, perPage, policies, allocate, channel, bursty, sensors, partition, learning, crawlers, history].map((v) => [v.id, v]));

/** The page's views: the start, then one per experiment of the core's registry
 * (`core.experiments()`, under their command names), in its order. An experiment without a view, or a view without
 * an experiment, is an error the page shows at once (and its tests catch). */
export function viewsOf(experiments) {
  const names = experiments.map((e) => e.command);
  const missing = names.filter((n) => !BY_EXPERIMENT.has(n));
  const extra = [...BY_EXPERIMENT.keys()].filter((id) => !names.includes(id));
  if (missing.length || extra.length) {
    throw new Error(`the page's views and the core's experiments disagree: ${[...missing.map((n) => `no view for ${n}`), ...extra.map((n) => `no experiment ${n}`)].join('; ')}`);
  }
  return [home, ...names.map((n) => BY_EXPERIMENT.get(n))];
}

/** Names the page once answered to: old links keep working. */
export const FORMER_PANELS = { repository: 'policies', factors: 'factor-curves', wikipedia: 'bursty' };
export const FORMER_VIEWS = { 'view-theory': 'level-sets', 'view-policies': 'policies', 'view-sensors': 'sensors', 'view-wikipedia': 'bursty', 'view-partition': 'partition' };
