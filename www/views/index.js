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

export const GROUPS = [
  { id: 'theory', label: 'Theory', source: 'thesis ch. 5' },
  { id: 'policies', label: 'Policies simulated', source: 'thesis §5.5' },
  { id: 'bursty', label: 'Bursty changes', source: 'thesis ch. 6' },
  { id: 'sensors', label: 'Robots vs sensors', source: 'Zemskov 2002' },
  { id: 'partition', label: 'Distributed crawling', source: 'Exposto 2008' },
  { id: 'learning', label: 'Learning to crawl', source: 'Kolobov et al. 2019' },
];

export const VIEWS = [home, levelSets, factorCurves, bursts, certify, perPage, policies, allocate, channel, bursty, sensors, partition, learning];

/** Names the page once answered to: old links keep working. */
export const FORMER_PANELS = { repository: 'policies', factors: 'factor-curves', wikipedia: 'bursty' };
export const FORMER_VIEWS = { 'view-theory': 'level-sets', 'view-policies': 'policies', 'view-sensors': 'sensors', 'view-wikipedia': 'bursty', 'view-partition': 'partition' };
